! deriv.f90 - reverse and forward mode from Fortran, checked against the
! closed form:  h(x, a) = a x**2 exp(x),  dh/dx = a (2 x + x**2) exp(x),
! with a held constant by the marker ad_const (module ad, include/ad.f90).
module deriv_functions
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
contains
  function h(x, a) bind(C) result(y)
    real(c_double), value :: x, a
    real(c_double) :: y
    y = a * x * x * exp(x)
  end function h
end module deriv_functions

program deriv
  use, intrinsic :: iso_c_binding, only: c_double, c_int, c_funptr, c_funloc
  use ad, only: ad_const
  use deriv_functions, only: h
  implicit none
  interface
    ! One interface per call shape: reverse mode returns h's adjoint ...
    function reverse_h(f, x, const, a) bind(C, name="__ad_autodiff_h")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double), value :: x, a
      integer(c_int), value :: const
      real(c_double) :: reverse_h
    end function reverse_h
    ! ... forward mode takes x's tangent and returns h's.
    function forward_h(f, x, dx, const, a) bind(C, name="__ad_fwddiff_h")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double), value :: x, dx, a
      integer(c_int), value :: const
      real(c_double) :: forward_h
    end function forward_h
  end interface
  real(c_double) :: x, a, want
  integer :: failures
  x = 0.6d0
  a = 1.5d0
  want = a * (2 * x + x * x) * exp(x)
  failures = 0
  call check("reverse dh/dx", reverse_h(c_funloc(h), x, ad_const, a))
  call check("forward dh/dx", forward_h(c_funloc(h), x, 1.0d0, ad_const, a))
  if (failures /= 0) error stop 1
contains
  subroutine check(what, got)
    character(*), intent(in) :: what
    real(c_double), intent(in) :: got
    logical :: ok
    ok = abs(got - want) <= 1d-12 * (1 + abs(want))
    if (ok) then
      print '(a, 1x, a, 1x, es23.15, 1x, a)', "Fortran", what, got, "ok"
    else
      print '(a, 1x, a, 1x, es23.15, 1x, a)', "Fortran", what, got, "WRONG"
      failures = failures + 1
    end if
  end subroutine check
end program deriv
