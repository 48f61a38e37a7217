! check.f90 - comparisons the Fortran tests share (module adcheck).
module adcheck
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
contains
  ! Stops the program (exit status 1) unless got and want agree to a
  ! relative (or, near zero, absolute) tolerance tol.
  subroutine check(what, got, want, tol)
    character(*), intent(in) :: what
    real(c_double), intent(in) :: got, want
    real(c_double), intent(in), optional :: tol
    real(c_double) :: limit
    limit = 1d-6
    if (present(tol)) limit = tol
    if (abs(got - want) > limit * max(1d0, abs(want))) then
      print '(a, a, es24.16, a, es24.16)', what, ': got ', got, ' want ', want
      error stop 1
    end if
  end subroutine

  subroutine check_all(what, got, want, tol)
    character(*), intent(in) :: what
    real(c_double), intent(in) :: got(:), want(:)
    real(c_double), intent(in), optional :: tol
    integer :: i
    do i = 1, size(got)
      call check(what, got(i), want(i), tol)
    end do
    print '(a, a)', what, ' ok'
  end subroutine
end module adcheck
