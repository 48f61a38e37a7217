! The reductions flang calls its runtime for (at -O0 all of them, at -O2
! NORM2): SUM (with and without MASK and DIM), PRODUCT, MAXVAL, MINVAL,
! NORM2, on whole arrays and on sections of a 2-D array.
! REQUIRES: flang
! RUN: rm -rf %t.d && mkdir -p %t.d/0 %t.d/2
! RUN: %flang_ad -O0 -J %t.d/0 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/0/a.out
! RUN: %run %t.d/0/a.out | FileCheck %s
! RUN: %flang_ad -O2 -J %t.d/2 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/2/a.out
! RUN: %run %t.d/2/a.out | FileCheck %s
! CHECK: gradient ok
! CHECK: tangent ok
module funcs
  use, intrinsic :: iso_c_binding
  implicit none
contains
  function f(x, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: r
    real(c_double) :: a(3, 3), s(3)
    a = reshape(x, [3, 3])
    s = sum(a, dim=1)
    r = sum(x, mask=x > 0.5d0) + product(a(2, :)) + maxval(x) * minval(a)
    r = r + norm2(a(:, 3)) + s(1) * s(2) - s(3) + maxval(a(1, :), mask=a(1, :) < 1)
  end function
end module

program main
  use ad
  use adcheck
  use funcs
  implicit none
  interface
    subroutine gradient(f, x, dx, mark, n) bind(C, name="__ad_autodiff_g")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: x(*), dx(*)
      integer(c_int), value :: mark, n
    end subroutine
    function tangent(f, x, dx, mark, n) bind(C, name="__ad_fwddiff_t")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: x(*), dx(*)
      integer(c_int), value :: mark, n
      real(c_double) :: tangent
    end function
  end interface
  integer, parameter :: n = 9
  real(c_double) :: x(n), v(n), dx(n), fd(n), xp(n), xm(n), h, t
  integer :: i
  x = [0.3d0, -1.2d0, 2.0d0, 0.7d0, 1.1d0, 0.9d0, -0.4d0, 1.5d0, 0.2d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0, -1d0, 0.5d0, 0.1d0, -0.3d0, 0.7d0]
  h = 1d-6
  do i = 1, n
    xp = x; xp(i) = xp(i) + h
    xm = x; xm(i) = xm(i) - h
    fd(i) = (f(xp, n) - f(xm, n)) / (2 * h)
  end do
  dx = 0
  call gradient(c_funloc(f), x, dx, ad_const, n)
  call check_all("gradient", dx, fd)
  t = tangent(c_funloc(f), x, v, ad_const, n)
  call check_all("tangent", [t], [dot_product(fd, v)])
end program
