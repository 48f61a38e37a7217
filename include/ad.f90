! ad.f90 - the ADPlugin markers for Fortran (module ad).
!
! Compile with: flang-22 -fpass-plugin=/path/to/ADPlugin.so ad.f90 prog.f90
! (the module first, or once with -J dir and then -I dir: docs/FORTRAN.md).
!
! The plugin differentiates every call of an entry point, a bind(C)
! interface whose binding name is __ad_autodiff (reverse mode) or
! __ad_fwddiff (forward mode), optionally followed by _SUFFIX. Declare one
! interface per call shape, with the function to differentiate first, as a
! type(c_funptr) passed by value (c_funloc of a bind(C) procedure):
!
!   interface
!     function grad_f(f, x, dx, mark, n) bind(C, name="__ad_autodiff_f")
!       import :: c_funptr, c_double, c_int
!       type(c_funptr), value :: f
!       real(c_double) :: x(*), dx(*)        ! an array and its shadow
!       integer(c_int), value :: mark, n     ! ad_const, then n
!       real(c_double) :: grad_f             ! what the call returns
!     end function
!   end interface
!
!   r = grad_f(c_funloc(f), x, dx, ad_const, n)
!
! Markers and scalars are passed by value, arrays by reference. The plugin
! recognises a marker by the variable it was read from and removes every
! reference to the markers: they need no definition when linking.
module ad
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  private
  public :: ad_dup, ad_dupnoneed, ad_const, ad_out

  ! Pointer (array) argument: the value, then its shadow. Reverse mode adds
  ! (+=) adjoints into the shadow; forward mode reads and writes tangents.
  integer(c_int), bind(C, name="__ad_dup") :: ad_dup
  ! As ad_dup; the array's final contents are not needed by the caller.
  integer(c_int), bind(C, name="__ad_dupnoneed") :: ad_dupnoneed
  ! Not differentiated.
  integer(c_int), bind(C, name="__ad_const") :: ad_const
  ! Reverse mode, a real scalar passed by value: its adjoint is returned.
  integer(c_int), bind(C, name="__ad_out") :: ad_out
end module ad
