! Markers passed by value (module ad) and real scalars passed by value:
! __ad_out scalars whose two adjoints come back in a bind(C) record,
! __ad_dup on an array, __ad_const on an integer; forward mode with each
! scalar followed by its tangent; a PRINT inside the function. Against
! central differences.
! REQUIRES: flang
! RUN: rm -rf %t.d && mkdir -p %t.d/0 %t.d/2
! RUN: %flang_ad -O0 -J %t.d/0 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/0/a.out
! RUN: %run %t.d/0/a.out | FileCheck %s
! RUN: %flang_ad -O2 -J %t.d/2 %src/include/ad.f90 %S/Inputs/check.f90 %s -o %t.d/2/a.out
! RUN: %run %t.d/2/a.out | FileCheck %s
! CHECK: f = {{ *}}9.3052
! CHECK: adjoints ok
! CHECK: gradient ok
! CHECK: tangent ok
module funcs
  use, intrinsic :: iso_c_binding
  implicit none
  type, bind(C) :: pair
    real(c_double) :: da, db
  end type
contains
  function f(a, b, x, n) bind(C) result(r)
    real(c_double), value :: a, b
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: r
    r = a * sum(x ** 2) + exp(b) * x(1) - a * b
    ! Printing inside a differentiated function: the values only flow out.
    print '(a, f10.4)', 'f =', r
  end function
end module

program main
  use ad
  use adcheck
  use funcs
  implicit none
  interface
    function gradient(f, m1, a, m2, b, m3, x, dx, m4, n) &
        bind(C, name="__ad_autodiff_pair")
      import :: c_funptr, c_double, c_int, pair
      type(c_funptr), value :: f
      integer(c_int), value :: m1, m2, m3, m4, n
      real(c_double), value :: a, b
      real(c_double) :: x(*), dx(*)
      type(pair) :: gradient
    end function
    function tangent(f, a, da, b, db, x, dx, m, n) bind(C, name="__ad_fwddiff_t")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double), value :: a, da, b, db
      real(c_double) :: x(*), dx(*)
      integer(c_int), value :: m, n
      real(c_double) :: tangent
    end function
  end interface
  integer, parameter :: n = 3
  real(c_double) :: x(n), dx(n), fd(n), xp(n), xm(n), v(n), a, b, h, t
  type(pair) :: p
  integer :: i
  a = 1.3d0; b = -0.4d0
  x = [0.5d0, -1.5d0, 2.0d0]
  v = [0.3d0, 1d0, -2d0]
  h = 1d-6
  do i = 1, n
    xp = x; xp(i) = xp(i) + h
    xm = x; xm(i) = xm(i) - h
    fd(i) = (f(a, b, xp, n) - f(a, b, xm, n)) / (2 * h)
  end do
  dx = 0
  p = gradient(c_funloc(f), ad_out, a, ad_out, b, ad_dup, x, dx, ad_const, n)
  call check_all("adjoints", [p%da, p%db], &
                 [(f(a + h, b, x, n) - f(a - h, b, x, n)) / (2 * h), &
                  (f(a, b + h, x, n) - f(a, b - h, x, n)) / (2 * h)])
  call check_all("gradient", dx, fd)
  t = tangent(c_funloc(f), a, 0.5d0, b, 2d0, x, v, ad_const, n)
  call check_all("tangent", [t], [dot_product(fd, v) + &
      0.5d0 * p%da + 2d0 * p%db])
end program
