// lib_cxx_unique_ptr.cpp at -O0.
//
// XFAIL: *
// Expected to fail until the memory type analysis (issue 12, item 5) types
// raw memory copies from what callers pass: moving a std::unique_ptr copies
// its std::tuple<State*, default_delete> with memcpy between two reference
// parameters, so "cannot differentiate 'std::_Tuple_impl<0ul, State*,
// std::default_delete<State>>::_Tuple_impl(...&&)': cannot tell which bytes
// of this memory copy hold floating-point data (nothing types its
// destination, parameter 1 of ..., or its source, parameter 2 of ...)".
// RUN: %clangxx_ad -O0 %S/lib_cxx_unique_ptr.cpp -o %t.O0 -lm && %run %t.O0
