! DOT_PRODUCT of operands of other kinds than its result (flang calls
! _FortranADotProductReal8 for real(8) with integer, and for real(4) with
! real(8), passing the operands as they are), MATMUL of a matrix by a vector
! and of a vector by a matrix (rank-1 results), and TRANSPOSE of a complex
! matrix (its elements are (re, im) pairs, which must move together).
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
    integer :: k(3)
    real(4) :: s(3)
    real(c_double) :: a(2, 3), y(2), z(3)
    complex(c_double_complex) :: c(2, 3), ct(3, 2)
    k = [2, -3, 5]
    s = real(x(4:6), 4)
    r = dot_product(x(1:3), k) + dot_product(s, x(1:3))
    a = reshape(x(1:6), [2, 3])
    y = matmul(a, x(7:9))
    z = matmul(x(7:8), a)
    r = r + y(1) * y(2) + z(1) - z(2) * z(3)
    c = cmplx(a, a * a + 1, c_double_complex)
    ct = transpose(c)
    r = r + real(ct(1, 2)) * aimag(ct(3, 1)) + aimag(ct(2, 1)) * 3 &
          + real(ct(3, 2)) * 5
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
  ! Values a real(4) holds exactly, so that the differences are exact.
  x = [0.5d0, -1.25d0, 2.0d0, 0.75d0, 1.5d0, 1d0, -0.25d0, 1.75d0, 0.125d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0, -1d0, 0.5d0, 0.1d0, -0.3d0, 0.7d0]
  h = 2d0 ** (-12)
  do i = 1, n
    xp = x; xp(i) = xp(i) + h
    xm = x; xm(i) = xm(i) - h
    fd(i) = (f(xp, n) - f(xm, n)) / (2 * h)
  end do
  dx = 0
  call gradient(c_funloc(f), x, dx, ad_const, n)
  call check_all("gradient", dx, fd, 1d-5)
  t = tangent(c_funloc(f), x, v, ad_const, n)
  call check_all("tangent", [t], [dot_product(fd, v)], 1d-5)
end program
