! DOT_PRODUCT, MATMUL (matrix by matrix, by vector, vector by matrix),
! TRANSPOSE and RESHAPE, which flang calls its runtime for at -O0.
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
    real(c_double) :: a(3, 3), b(3, 3), c(3, 3), y(3), z(3)
    a = reshape(x, [3, 3])
    b = transpose(a) * 0.5d0 + 1
    c = matmul(a, b)
    y = matmul(c, x(1:3))
    z = matmul(x(4:6), a)
    r = sum(c * c) / 10 + dot_product(y, z) / 100 + dot_product(a(:, 1), x(7:9))
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
