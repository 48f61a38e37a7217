! NORM2, MAXVAL and MINVAL where the naive formulas differ from flang's
! runtime: NORM2 of values whose squares overflow (flang scales them), of a
! zero vector (its derivative is the subgradient 0, not a NaN), MAXVAL and
! MINVAL of all -Inf and of NaNs (flang: a NaN only when all are NaN). What
! the derivative's copy of the function computes must be what flang's
! runtime gives: the forward derivative writes out as the function does.
! REQUIRES: flang
! RUN: rm -rf %t.d && mkdir -p %t.d/0 %t.d/2
! RUN: %flang_ad -O0 -J %t.d/0 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/0/a.out
! RUN: %run %t.d/0/a.out | FileCheck %s
! RUN: %flang_ad -O2 -J %t.d/2 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/2/a.out
! RUN: %run %t.d/2/a.out | FileCheck %s
! CHECK: primal ok
! CHECK: gradient ok
! CHECK: tangent ok
module funcs
  use, intrinsic :: iso_c_binding
  implicit none
  ! Set by the program before any call (not constants flang could fold).
  real(c_double) :: ninf, nan
contains
  function f(x, out, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(out) :: out(6)
    real(c_double) :: r
    real(c_double) :: y(3), z(3)
    y = x(3:5) + ninf
    z = x(3:5) + nan
    out(1) = norm2(x(1:2) * 1d200)
    out(2) = maxval(y)
    out(3) = minval(-y)
    out(4) = maxval(z)
    out(5) = minval(z)
    z(2) = x(4)
    out(6) = maxval(z) + minval(z)
    r = out(1) / 1d200 + norm2(x(1:2) * 0) + out(6)
  end function
end module

program main
  use, intrinsic :: ieee_arithmetic
  use ad
  use adcheck
  use funcs
  implicit none
  interface
    subroutine gradient(f, x, dx, out, dout, n) bind(C, name="__ad_autodiff_g")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: x(*), dx(*), out(*), dout(*)
      integer(c_int), value :: n
    end subroutine
    function tangent(f, x, dx, out, dout, n) bind(C, name="__ad_fwddiff_t")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: x(*), dx(*), out(*), dout(*)
      integer(c_int), value :: n
      real(c_double) :: tangent
    end function
  end interface
  integer, parameter :: n = 5
  real(c_double) :: x(n), v(n), dx(n), want(n), t, out(6), dout(6), plain(6)
  integer :: i
  ninf = ieee_value(ninf, ieee_negative_inf)
  nan = ieee_value(nan, ieee_quiet_nan)
  x = [0.3d0, -1.2d0, 2.0d0, 0.7d0, 1.1d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0, -1d0]
  t = f(x, plain, n)
  dout = 0
  t = tangent(c_funloc(f), x, v, out, dout, n)
  do i = 1, 6
    if (.not. (out(i) == plain(i) .or. (isnan(out(i)) .and. isnan(plain(i))))) then
      print *, 'out', i, ': got', out(i), ' want', plain(i)
      error stop 1
    end if
  end do
  print '(a)', 'primal ok'
  ! norm2's derivative, and 2 * d x(4) from out(6).
  want = [x(1) / norm2(x(1:2)), x(2) / norm2(x(1:2)), 0d0, 2d0, 0d0]
  dx = 0
  dout = 0
  call gradient(c_funloc(f), x, dx, out, dout, n)
  call check_all("gradient", dx, want)
  call check_all("tangent", [t], [dot_product(want, v)])
end program
