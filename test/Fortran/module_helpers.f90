! A time loop over module procedures: helpers with assumed-shape arrays
! (descriptors passed between procedures, not inlined at -O0), a module
! parameter and a module array that is not differentiated, a subroutine
! with an output array. Reverse and forward against central differences.
! At -O0 an assumed-shape dummy of a procedure that is not inlined is not
! supported yet (docs/FORTRAN.md, "Limits"): -O1 and -O2 here.
! REQUIRES: flang
! RUN: rm -rf %t.d && mkdir -p %t.d/1 %t.d/2
! RUN: %flang_ad -O1 -J %t.d/1 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/1/a.out
! RUN: %run %t.d/1/a.out | FileCheck %s
! RUN: %flang_ad -O2 -J %t.d/2 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/2/a.out
! RUN: %run %t.d/2/a.out | FileCheck %s
! CHECK: gradient ok
! CHECK: tangent ok
module physics
  use, intrinsic :: iso_c_binding
  implicit none
  real(c_double), parameter :: dt = 0.1d0
  real(c_double) :: weights(4) = [1d0, 2d0, 0.5d0, 1.5d0]
contains
  subroutine step(u, unew)
    real(c_double), intent(in) :: u(:)
    real(c_double), intent(out) :: unew(:)
    integer :: i, n
    n = size(u)
    do i = 1, n
      unew(i) = u(i) + dt * (u(modulo(i, n) + 1) - u(i)) * u(i)
    end do
  end subroutine
  function energy(u) result(e)
    real(c_double), intent(in) :: u(:)
    real(c_double) :: e
    e = sum(weights(1:size(u)) * u ** 2)
  end function
  function simulate(u0, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double), intent(in) :: u0(n)
    real(c_double) :: r
    real(c_double), allocatable :: u(:), v(:)
    integer :: k
    u = u0
    allocate(v(n))
    do k = 1, 5
      call step(u, v)
      u = v
    end do
    r = energy(u)
  end function
end module

program main
  use ad
  use adcheck
  use physics
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
  integer, parameter :: n = 4
  real(c_double) :: x(n), v(n), dx(n), fd(n), xp(n), xm(n), h, t
  integer :: i
  x = [0.3d0, -1.2d0, 2.0d0, 0.7d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0]
  h = 1d-6
  do i = 1, n
    xp = x; xp(i) = xp(i) + h
    xm = x; xm(i) = xm(i) - h
    fd(i) = (simulate(xp, n) - simulate(xm, n)) / (2 * h)
  end do
  dx = 0
  call gradient(c_funloc(simulate), x, dx, ad_const, n)
  call check_all("gradient", dx, fd)
  t = tangent(c_funloc(simulate), x, v, ad_const, n)
  call check_all("tangent", [t], [dot_product(fd, v)])
end program
