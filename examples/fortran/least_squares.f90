! least_squares.f90 - the gradient and a tangent of a Fortran function.
!
! loss(p) fits a quadratic a + b t + c t^2 to data with the least-squares
! misfit plus a smoothness penalty: allocatable work arrays, MATMUL, SUM
! and MAXVAL. Reverse mode gives d loss / d p in one call, forward mode
! the derivative along a direction; both are checked against central
! differences.
!
!   flang-22 -O2 -fpass-plugin=ADPlugin.so -J build ../../include/ad.f90 \
!       least_squares.f90 -o least_squares
module model
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: m = 8
contains
  function loss(p, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double), intent(in) :: p(n)
    real(c_double) :: r
    real(c_double), allocatable :: basis(:, :), fit(:), misfit(:)
    real(c_double) :: t(m), data(m)
    integer :: i
    do i = 1, m
      t(i) = (i - 1) / real(m - 1, c_double)
      data(i) = exp(t(i))
    end do
    allocate(basis(m, n))
    do i = 1, n
      basis(:, i) = t ** (i - 1)
    end do
    fit = matmul(basis, p)
    misfit = fit - data
    r = sum(misfit ** 2) + 0.1d0 * maxval(abs(misfit)) + 1d-3 * sum(p ** 2)
  end function
end module

program least_squares
  use ad
  use model
  implicit none
  interface
    ! Reverse mode: p and its shadow dp, then n (not differentiated).
    subroutine gradient(f, p, dp, mark, n) bind(C, name="__ad_autodiff_loss")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: p(*), dp(*)
      integer(c_int), value :: mark, n
    end subroutine
    ! Forward mode: p and its tangent v; returns d loss along v.
    function tangent(f, p, v, mark, n) bind(C, name="__ad_fwddiff_loss")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: p(*), v(*)
      integer(c_int), value :: mark, n
      real(c_double) :: tangent
    end function
  end interface
  integer, parameter :: n = 3
  real(c_double) :: p(n), dp(n), v(n), fd(n), pp(n), pm(n), h, t
  integer :: i
  p = [1d0, 0.8d0, 0.6d0]
  v = [1d0, -1d0, 0.5d0]
  dp = 0
  call gradient(c_funloc(loss), p, dp, ad_const, n)
  t = tangent(c_funloc(loss), p, v, ad_const, n)

  h = 1d-6
  do i = 1, n
    pp = p; pp(i) = pp(i) + h
    pm = p; pm(i) = pm(i) - h
    fd(i) = (loss(pp, n) - loss(pm, n)) / (2 * h)
  end do
  print '(a, 3f12.6)', 'gradient          ', dp
  print '(a, 3f12.6)', 'finite differences', fd
  print '(a, f12.6, a, f12.6)', 'tangent along v   ', t, '   gradient . v', &
      dot_product(dp, v)
  if (maxval(abs(dp - fd)) > 1d-6 * max(1d0, maxval(abs(fd))) .or. &
      abs(t - dot_product(fd, v)) > 1d-6 * max(1d0, abs(t))) then
    print '(a)', 'MISMATCH'
    error stop 1
  end if
  print '(a)', 'ok'
end program
