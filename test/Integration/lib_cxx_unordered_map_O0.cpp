// lib_cxx_unordered_map.cpp at -O0.
//
// XFAIL: *
// Expected to fail until the memory type analysis (issue 12, item 5) lets a
// pointer to a local int reach differentiated memory: operator[] forwards its
// key as std::tuple<int&&>, and -O0 keeps the tuple in memory, so "cannot
// differentiate 'std::_Head_base<0ul, int&&, false>::_Head_base<int>(int&&)':
// a pointer to memory without a shadow (parameter 2 of ..., an __ad_const
// argument or a mutable global) is stored in or merged with differentiated
// memory". The hash policy and the null end() iterator, which failed here
// before, are handled.
// RUN: %clangxx_ad -O0 %S/lib_cxx_unordered_map.cpp -o %t.O0 -lm && %run %t.O0
