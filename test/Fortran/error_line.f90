! A call the plugin cannot differentiate (an external procedure with no
! body, given differentiated data) is an error that, with -g, names the
! .f90 file and the line of the call.
! REQUIRES: flang
! RUN: rm -rf %t.d && mkdir -p %t.d
! RUN: not %flang_ad -O0 -g -J %t.d %src/include/ad.f90 %s -o %t.d/a.out 2>&1 | FileCheck %s
! RUN: not %flang_ad -O2 -g -J %t.d %src/include/ad.f90 %s -o %t.d/a.out 2>&1 | FileCheck %s
! CHECK: error_line.f90:[[@LINE+15]]:{{[0-9]+}}: {{.*}}cannot differentiate 'f'
module funcs
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    subroutine opaque(x, n) bind(C)
      import :: c_double, c_int
      integer(c_int), value :: n
      real(c_double) :: x(n)
    end subroutine
  end interface
contains
  function f(x, n) bind(C) result(r)
    integer(c_int), value :: n
    real(c_double) :: x(n), r
    call opaque(x, n)
    r = sum(x)
  end function
end module

program main
  use ad
  use funcs
  implicit none
  interface
    subroutine gradient(f, x, dx, mark, n) bind(C, name="__ad_autodiff_g")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: f
      real(c_double) :: x(*), dx(*)
      integer(c_int), value :: mark, n
    end subroutine
  end interface
  real(c_double) :: x(3) = 1, dx(3) = 0
  call gradient(c_funloc(f), x, dx, ad_const, 3)
end program
