! An allocatable assigned a section of itself, a = a(2:n): flang (at -O0)
! passes the section to _FortranAAssign without a temporary, so the new
! block must be filled before the old one is freed (valgrind reports a
! read of freed memory otherwise). The derivatives, which use the plugin's
! body of _FortranAAssign, against central differences, and what the
! function computes against what it computes with flang's runtime.
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
contains
  ! out receives the shifted array (its first n-1 elements).
  function f(x, out, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(out) :: out(n)
    real(c_double) :: r
    real(c_double), allocatable :: a(:)
    a = x * x
    a = a(2:n)
    out = 0
    out(1:size(a)) = a
    r = sum(a * x(1:n-1))
  end function
end module

program main
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
  real(c_double) :: x(n), v(n), dx(n), fd(n), xp(n), xm(n), h, t
  real(c_double) :: out(n), want(n), dout(n)
  integer :: i
  x = [0.3d0, -1.2d0, 2.0d0, 0.7d0, 1.1d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0, -1d0]
  h = 1d-6
  do i = 1, n
    xp = x; xp(i) = xp(i) + h
    xm = x; xm(i) = xm(i) - h
    fd(i) = (f(xp, out, n) - f(xm, out, n)) / (2 * h)
  end do
  t = f(x, want, n)
  dx = 0
  dout = 0
  call gradient(c_funloc(f), x, dx, out, dout, n)
  dout = 0
  t = tangent(c_funloc(f), x, v, out, dout, n)
  ! The forward derivative ran the function too: out holds what it wrote.
  call check_all("primal", out, want, 0d0)
  call check_all("gradient", dx, fd)
  call check_all("tangent", [t], [dot_product(fd, v)])
end program
