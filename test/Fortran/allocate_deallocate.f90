! ALLOCATE and DEALLOCATE inside the differentiated function: a 2-D
! allocatable filled element by element, one allocated by the program and
! freed before the end, one left for the end of the function to free.
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
    real(c_double), allocatable :: a(:, :), w(:)
    integer :: i, j
    allocate(a(3, 3), w(3))
    do j = 1, 3
      do i = 1, 3
        a(i, j) = x(i + 3 * (j - 1)) * x(j)
      end do
    end do
    w = a(:, 2) + a(3, :)
    r = sum(w * w)
    deallocate(w)
    r = r + sum(sin(a))
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
