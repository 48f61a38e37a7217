//===- KnownFunctions.cpp - The table of known callees
//----------------------===//
#include "rules/KnownFunctions.h"
#include "core/PrimalMarks.h"
#include "rules/ComplexRules.h"
#include "rules/CustomRules.h"
#include "rules/MathRules.h"
#include "rules/MessagePassing.h"
#include "rules/RuleTable.h"
#include "rules/VectorReductions.h"
#include "rules/WarpShuffles.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/GlobPattern.h"

using namespace llvm;

namespace ad {
namespace {

/// How much memory an allocation function returns, and aligned how.
constexpr AllocationShape MallocShape{/*Size=*/0};
constexpr AllocationShape CallocShape{/*Size=*/1, /*Count=*/0};
constexpr AllocationShape AlignedAllocShape{/*Size=*/1, -1, /*Align=*/0};
constexpr AllocationShape AlignedNewShape{/*Size=*/0, -1, /*Align=*/1};
constexpr AllocationShape PosixMemalignShape{/*Size=*/2, -1, /*Align=*/1};
constexpr AllocationShape ReallocShape{/*Size=*/1};
// Rust's global allocator: __rust_alloc(size, align) and
// __rust_realloc(ptr, old_size, align, new_size).
// __rust_dealloc(ptr, size, align).
constexpr AllocationShape RustAllocShape{/*Size=*/0, -1, /*Align=*/1, -1,
                                         /*RustAllocator=*/true};
constexpr AllocationShape RustReallocShape{/*Size=*/3, -1, /*Align=*/2,
                                           /*OldSize=*/1,
                                           /*RustAllocator=*/true};
constexpr AllocationShape RustDeallocShape{/*Size=*/1, -1, /*Align=*/2, -1,
                                           /*RustAllocator=*/true};

/// Which colours a red-black tree function may read (see MirrorShape).
constexpr MirrorShape NoColours{};
constexpr MirrorShape NodeColour{/*SyncFrom=*/0};
constexpr MirrorShape InsertColours{/*SyncFrom=*/2, /*Header=*/3};
constexpr MirrorShape EraseColours{/*SyncFrom=*/0, /*Header=*/1,
                                   /*FromSuccessor=*/true};

struct NamedKind {
  const char *Name;
  CalleeKind Kind;
  const AllocationShape *Alloc = nullptr;
  const MirrorShape *Mirror = nullptr;
};

// Library functions by name. C++ operators appear in their Itanium mangling.
const NamedKind LibraryFunctions[] = {
    {"malloc", CalleeKind::Malloc, &MallocShape},
    {"_Znwm", CalleeKind::Malloc, &MallocShape},
    {"_Znam", CalleeKind::Malloc, &MallocShape},
    {"_ZnwmRKSt9nothrow_t", CalleeKind::Malloc, &MallocShape},
    {"_ZnamRKSt9nothrow_t", CalleeKind::Malloc, &MallocShape},
    {"aligned_alloc", CalleeKind::Malloc, &AlignedAllocShape},
    {"memalign", CalleeKind::Malloc, &AlignedAllocShape},
    {"_ZnwmSt11align_val_t", CalleeKind::Malloc, &AlignedNewShape},
    {"_ZnamSt11align_val_t", CalleeKind::Malloc, &AlignedNewShape},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", CalleeKind::Malloc,
     &AlignedNewShape},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", CalleeKind::Malloc,
     &AlignedNewShape},
    {"posix_memalign", CalleeKind::AllocOut, &PosixMemalignShape},
    {"calloc", CalleeKind::Calloc, &CallocShape},
    {"realloc", CalleeKind::Realloc, &ReallocShape},
    {"free", CalleeKind::Free},
    {"_ZdlPv", CalleeKind::Free},
    {"_ZdaPv", CalleeKind::Free},
    {"_ZdlPvm", CalleeKind::Free},
    {"_ZdaPvm", CalleeKind::Free},
    {"_ZdlPvSt11align_val_t", CalleeKind::Free},
    {"_ZdaPvSt11align_val_t", CalleeKind::Free},
    {"_ZdlPvmSt11align_val_t", CalleeKind::Free},
    {"_ZdaPvmSt11align_val_t", CalleeKind::Free},
    // Rust's allocator as older rustc named it, unmangled (the families
    // below match today's names).
    {"__rust_alloc", CalleeKind::Malloc, &RustAllocShape},
    {"__rust_alloc_zeroed", CalleeKind::Calloc, &RustAllocShape},
    {"__rust_realloc", CalleeKind::Realloc, &RustReallocShape},
    {"__rust_dealloc", CalleeKind::Free, &RustDeallocShape},
    // libstdc++'s red-black tree (std::map, std::set) and list node
    // functions: they only read and rewrite the links (and tree colours)
    // of the nodes they are given and of nodes reachable from them.
    {"_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base", CalleeKind::MirrorCall,
     nullptr, &NodeColour},
    {"_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base", CalleeKind::MirrorCall,
     nullptr, &NodeColour},
    {"_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
     CalleeKind::MirrorCall, nullptr, &InsertColours},
    {"_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
     CalleeKind::MirrorCall, nullptr, &EraseColours},
    {"_ZNSt8__detail15_List_node_base7_M_hookEPS0_", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"_ZNSt8__detail15_List_node_base9_M_unhookEv", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
     CalleeKind::MirrorCall, nullptr, &NoColours},
    {"_ZNSt8__detail15_List_node_base10_M_reverseEv", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"_ZNSt8__detail15_List_node_base4swapERS0_S1_", CalleeKind::MirrorCall,
     nullptr, &NoColours},
    {"memcpy", CalleeKind::MemCopy},
    {"memmove", CalleeKind::MemCopy},
    {"memset", CalleeKind::MemSet},
    // The tape of a derivative that is differentiated again
    // (runtime/RuntimeFunctions.h emits these).
    {"__ad_tape_push", CalleeKind::TapePush},
    {"__ad_tape_push_unchecked", CalleeKind::TapePush},
    {"__ad_tape_pop", CalleeKind::TapePop},
    {"__ad_tape_reserve", CalleeKind::TapeReserve},
    // A shadow tape's pushes check their capacity: reserving is enough.
    {"__ad_tape_ensure", CalleeKind::TapeReserve},
    {"__ad_tape_free", CalleeKind::TapeFree},
    // Where a running extreme's element is (primal/SelectReductions.cpp):
    // an index, found by reading, no derivative.
    {"__ad_first_equal.float", CalleeKind::Inactive},
    {"__ad_first_equal.double", CalleeKind::Inactive},
    // No derivative flows through these. Printing is inactive even when
    // given a differentiated value: the value only flows out to the stream.
    // OpenMP's runtime (libomp) in a parallel region's body: barriers and
    // the tickets of critical sections order the threads' reverse sweeps
    // (rules/ParallelCalls.cpp); the rest hand out thread numbers and loop
    // iterations, integers that the reverse sweep reads back like any
    // other (a thread runs its own iterations backwards), take and release
    // locks, or pick the thread that runs a block.
    {"__kmpc_barrier", CalleeKind::Barrier},
    {"__ad_omp_ticket", CalleeKind::TeamTurn},
    {"__ad_omp_turn_end", CalleeKind::TeamTurn},
    {"__kmpc_critical", CalleeKind::Inactive},
    {"__kmpc_critical_with_hint", CalleeKind::Inactive},
    {"__kmpc_end_critical", CalleeKind::Inactive},
    {"__kmpc_ordered", CalleeKind::Inactive},
    {"__kmpc_end_ordered", CalleeKind::Inactive},
    {"__kmpc_serialized_parallel", CalleeKind::Inactive},
    {"__kmpc_end_serialized_parallel", CalleeKind::Inactive},
    {"__kmpc_global_thread_num", CalleeKind::Inactive},
    {"__kmpc_push_num_threads", CalleeKind::Inactive},
    {"__kmpc_push_proc_bind", CalleeKind::Inactive},
    {"__kmpc_for_static_init_4", CalleeKind::Inactive},
    {"__kmpc_for_static_init_4u", CalleeKind::Inactive},
    {"__kmpc_for_static_init_8", CalleeKind::Inactive},
    {"__kmpc_for_static_init_8u", CalleeKind::Inactive},
    {"__kmpc_for_static_fini", CalleeKind::Inactive},
    {"__kmpc_dispatch_init_4", CalleeKind::Inactive},
    {"__kmpc_dispatch_init_4u", CalleeKind::Inactive},
    {"__kmpc_dispatch_init_8", CalleeKind::Inactive},
    {"__kmpc_dispatch_init_8u", CalleeKind::Inactive},
    {"__kmpc_dispatch_next_4", CalleeKind::Inactive},
    {"__kmpc_dispatch_next_4u", CalleeKind::Inactive},
    {"__kmpc_dispatch_next_8", CalleeKind::Inactive},
    {"__kmpc_dispatch_next_8u", CalleeKind::Inactive},
    {"__kmpc_dispatch_fini_4", CalleeKind::Inactive},
    {"__kmpc_dispatch_fini_4u", CalleeKind::Inactive},
    {"__kmpc_dispatch_fini_8", CalleeKind::Inactive},
    {"__kmpc_dispatch_fini_8u", CalleeKind::Inactive},
    {"__kmpc_dispatch_deinit", CalleeKind::Inactive},
    {"__kmpc_single", CalleeKind::Inactive},
    {"__kmpc_end_single", CalleeKind::Inactive},
    {"__kmpc_master", CalleeKind::Inactive},
    {"__kmpc_end_master", CalleeKind::Inactive},
    {"__kmpc_masked", CalleeKind::Inactive},
    {"__kmpc_end_masked", CalleeKind::Inactive},
    {"__kmpc_flush", CalleeKind::Inactive},
    {"omp_get_thread_num", CalleeKind::Inactive},
    {"omp_get_num_threads", CalleeKind::Inactive},
    {"omp_get_max_threads", CalleeKind::Inactive},
    {"omp_in_parallel", CalleeKind::Inactive},
    {"omp_init_lock", CalleeKind::Inactive},
    {"omp_destroy_lock", CalleeKind::Inactive},
    {"omp_init_nest_lock", CalleeKind::Inactive},
    {"omp_destroy_nest_lock", CalleeKind::Inactive},
    {"omp_get_wtime", CalleeKind::Inactive},
    {"printf", CalleeKind::Inactive},
    {"fprintf", CalleeKind::Inactive},
    {"sprintf", CalleeKind::Inactive},
    {"snprintf", CalleeKind::Inactive},
    {"vprintf", CalleeKind::Inactive},
    {"vfprintf", CalleeKind::Inactive},
    {"vsprintf", CalleeKind::Inactive},
    {"vsnprintf", CalleeKind::Inactive},
    {"puts", CalleeKind::Inactive},
    {"putchar", CalleeKind::Inactive},
    {"fputs", CalleeKind::Inactive},
    {"fputc", CalleeKind::Inactive},
    {"putc", CalleeKind::Inactive},
    {"fwrite", CalleeKind::Inactive},
    {"fflush", CalleeKind::Inactive},
    {"perror", CalleeKind::Inactive},
    {"lgamma", CalleeKind::LibraryState},
    {"lgammaf", CalleeKind::LibraryState},
    {"lgammal", CalleeKind::LibraryState},
    {"rand", CalleeKind::Inactive},
    {"srand", CalleeKind::Inactive},
    {"random", CalleeKind::Inactive},
    {"drand48", CalleeKind::Inactive},
    {"clock", CalleeKind::Inactive},
    {"time", CalleeKind::Inactive},
    {"gettimeofday", CalleeKind::Inactive},
    {"clock_gettime", CalleeKind::Inactive},
    {"abort", CalleeKind::Inactive},
    {"exit", CalleeKind::Inactive},
    {"__assert_fail", CalleeKind::Inactive},
    {"strlen", CalleeKind::Inactive},
    {"strcmp", CalleeKind::Inactive},
    {"strncmp", CalleeKind::Inactive},
    {"memcmp", CalleeKind::Inactive},
    {"abs", CalleeKind::Inactive},
    {"labs", CalleeKind::Inactive},
    {"atoi", CalleeKind::Inactive},
    {"getenv", CalleeKind::Inactive},
    {"malloc_usable_size", CalleeKind::Inactive}, // In derivatives' realloc.
    {"lround", CalleeKind::Inactive},
    {"lrint", CalleeKind::Inactive},
    {"llround", CalleeKind::Inactive},
    {"lroundf", CalleeKind::Inactive},
    {"lrintf", CalleeKind::Inactive},
    {"ilogb", CalleeKind::Inactive},
    {"ilogbf", CalleeKind::Inactive},
    {"isnan", CalleeKind::Inactive},
    {"isinf", CalleeKind::Inactive},
    {"__isnan", CalleeKind::Inactive},
    {"__isinf", CalleeKind::Inactive},
    {"__cxa_guard_acquire", CalleeKind::Inactive},
    {"__cxa_guard_release", CalleeKind::Inactive},
    // MPI calls that move no data (rules/MessagePassing.h has those that
    // do): a rank's number, a barrier, which the reverse sweep needs not
    // mirror (ranks share no memory), a clock.
    {"MPI_Comm_rank", CalleeKind::Inactive},
    {"MPI_Comm_size", CalleeKind::Inactive},
    {"MPI_Barrier", CalleeKind::Inactive},
    {"MPI_Wtime", CalleeKind::Inactive},
    {"MPI_Wtick", CalleeKind::Inactive},
    {"MPI_Abort", CalleeKind::Inactive},
};

// Families of C++ standard-library functions (libstdc++), matched by a glob
// on their Itanium-mangled names where a family is too large to list (and, at
// the end, Rust's runtime functions, whose names carry a hash). Every
// member of an inactive family reads what it is given and writes only
// characters, integers, and the internals of its own objects (a stream's state,
// a string's buffer and length, a hash policy's next size): no floating-point
// value reaches differentiated memory through them, and what they return
// (a stream, a size, a character pointer) carries no derivative. A family
// row is taken even where the function has a body (a template instantiated
// in this module): its body has nothing to differentiate either.
const NamedKind LibraryFamilies[] = {
    // Output: std::ostream's members (operator<<(double), _M_insert<T>,
    // put, write, flush, sentry), the std::operator<< templates and the
    // inserters and manipulators they call. Values only flow out.
    {"_ZN{,K}So*", CalleeKind::Inactive},
    {"_ZN{,K}St13basic_ostreamI*", CalleeKind::Inactive},
    {"_ZStlsI*", CalleeKind::Inactive},
    {"_ZSt16__ostream_insertI*", CalleeKind::Inactive},
    {"_ZSt{4endl,4ends,5flush}I*", CalleeKind::Inactive},
    // Stream state and construction: ios_base (and its static Init object),
    // basic_ios, locale, ctype facets, string and file streams.
    {"_ZN{,K}St8ios_base*", CalleeKind::Inactive},
    {"_ZN{,K}St9basic_iosI*", CalleeKind::Inactive},
    {"_ZN{,K}St6locale*", CalleeKind::Inactive},
    {"_ZN{,K}St5ctypeI*", CalleeKind::Inactive},
    {"_ZN{,K}St7__cxx11{19basic_ostringstream,18basic_stringstream,"
     "15basic_stringbuf}I*",
     CalleeKind::Inactive},
    {"_ZN{,K}St{14basic_ofstream,13basic_filebuf}I*", CalleeKind::Inactive},
    // std::string: its members, its comparisons and concatenations, its
    // allocator (constructor and destructor do nothing), conversions of
    // numbers to text, and the hashes of its bytes.
    {"_ZN{,K}St7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE*",
     CalleeKind::Inactive},
    {"_ZSt{pl,eq,ne,lt,gt,le,ge}IcSt11char_traitsIcESaIcEE*",
     CalleeKind::Inactive},
    {"_ZNSaI{c,w}E*", CalleeKind::Inactive},
    {"_ZNSt7__cxx119to_string*", CalleeKind::Inactive},
    {"_ZN9__gnu_cxx12__to_xstringI*", CalleeKind::Inactive},
    {"_ZSt{11_Hash_bytes,15_Fnv_hash_bytes}*", CalleeKind::Inactive},
    // std::unordered_map's sizing policy: integers only.
    {"_ZN{,K}St8__detail20_Prime_rehash_policy*", CalleeKind::Inactive},
    // Exceptions: std::__throw_length_error and its kin, terminate, and the
    // C++ ABI's exception and guard functions.
    {"_ZSt*__throw_*", CalleeKind::Inactive},
    {"_ZSt9terminatev", CalleeKind::Inactive},
    {"__cxa_*", CalleeKind::Inactive},
    // flang's output statements (print, write): a statement's begin and
    // end, and one call per item, whose values only flow out. Input
    // (_FortranAioInput*) writes the program's memory and is not here.
    {"_FortranAio{Begin,Output,End}*", CalleeKind::Inactive},

    // Rust's global allocator, in rustc's v0 mangling of its shim crate
    // `__rustc` (`_RNvCs<hash>_7___rustc12___rust_alloc`): the __rust_*
    // functions programs call, the default allocator's __rdl_* behind them,
    // and a #[global_allocator]'s __rg_*, which link-time inlining may
    // expose. The shim's body is only a call of the allocator, and the row
    // is taken before any body: memory from them gets a shadow allocated
    // alike, which their dealloc frees (forward mode) and their realloc
    // grows keeping its contents.
    {"_R*_7___rustc{12___rust,11___rdl,10___rg}_alloc", CalleeKind::Malloc,
     &RustAllocShape},
    {"_R*_7___rustc{19___rust,18___rdl,17___rg}_alloc_zeroed",
     CalleeKind::Calloc, &RustAllocShape},
    {"_R*_7___rustc{14___rust,13___rdl,12___rg}_realloc", CalleeKind::Realloc,
     &RustReallocShape},
    {"_R*_7___rustc{14___rust,13___rdl,12___rg}_dealloc", CalleeKind::Free,
     &RustDeallocShape},
    // A volatile read that only makes the link need the shim.
    {"_R*_7___rustc35___rust_no_alloc_shim_is_unstable_v2",
     CalleeKind::Inactive},
    // Rust's panics, which never return: the std library's in v0 mangling
    // (_R...), generic ones instantiated in the program's crate in legacy
    // mangling (_ZN...17h<hash>E). They read an index, a length, a message
    // or a source location, never a derivative.
    {"{_R*_,_ZN}4core9panicking*", CalleeKind::Inactive},
    {"{_R*_,_ZN}3std9panicking{11begin_panic,20rust_panic_with_hook,"
     "19begin_panic_handler}*",
     CalleeKind::Inactive},
    {"{_R*_,_ZN}4core5slice5index*_fail*", CalleeKind::Inactive},
    {"{_R*_,_ZN}4core3str*slice_error_fail*", CalleeKind::Inactive},
    {"{_R*_,_ZN}5alloc7raw_vec{12handle_error,17capacity_overflow}*",
     CalleeKind::Inactive},
    {"{_R*_,_ZN}5alloc5alloc18handle_alloc_error*", CalleeKind::Inactive},
    {"{_R*_,_ZN}4core{6option13unwrap_failed,6option13expect_failed,"
     "6result13unwrap_failed}*",
     CalleeKind::Inactive},
    {"{_R*_,_ZN}4core4cell{22panic_already_borrowed,"
     "30panic_already_mutably_borrowed}*",
     CalleeKind::Inactive},
    {"{_R*_,_ZN}3std7process5abort*", CalleeKind::Inactive},
};

// The types of the objects those families work on, by the name clang gives
// their IR struct type (a duplicate gets a ".N" suffix).
const char *const InactiveLibraryTypes[] = {
    "class.std::__cxx11::basic_string",
    "class.std::__cxx11::basic_ostringstream",
    "class.std::__cxx11::basic_istringstream",
    "class.std::__cxx11::basic_stringstream",
    "class.std::__cxx11::basic_stringbuf",
    "class.std::basic_ostream",
    "class.std::basic_istream",
    "class.std::basic_ios",
    "class.std::ios_base",
    "class.std::locale",
    "class.std::basic_ofstream",
    "class.std::basic_ifstream",
    "class.std::basic_fstream",
    "class.std::basic_filebuf",
    "class.std::allocator",
};

const StringMap<const NamedKind *> &libraryIndex() {
  static const StringMap<const NamedKind *> Index = [] {
    StringMap<const NamedKind *> M;
    for (const NamedKind &K : LibraryFunctions)
      M[K.Name] = &K;
    return M;
  }();
  return Index;
}

/// The family row whose pattern matches \p Name, or nullptr. A linear scan,
/// but RuleTable asks once per callee signature.
const NamedKind *libraryFamily(StringRef Name) {
  static const std::vector<std::pair<GlobPattern, const NamedKind *>> Families =
      [] {
        std::vector<std::pair<GlobPattern, const NamedKind *>> V;
        for (const NamedKind &K : LibraryFamilies)
          V.emplace_back(
              cantFail(GlobPattern::create(K.Name, /*MaxSubPatterns=*/64)), &K);
        return V;
      }();
  if (!Name.starts_with("_Z") && !Name.starts_with("_R") &&
      !Name.starts_with("_FortranAio") &&
      !Name.starts_with("__cxa_"))
    return nullptr;
  for (const auto &[Pattern, Row] : Families)
    if (Pattern.match(Name))
      return Row;
  return nullptr;
}

/// The library row of \p Name, by exact name or by family.
const NamedKind *libraryRow(StringRef Name) {
  const StringMap<const NamedKind *> &Index = libraryIndex();
  auto It = Index.find(Name);
  return It != Index.end() ? It->second : libraryFamily(Name);
}

/// Collects the functions an indirect callee chooses between (selects and
/// phis of functions); false if it may be anything else.
bool collectAlternatives(const Value *V, SmallVectorImpl<const Function *> &Out,
                         SmallPtrSetImpl<const Value *> &Seen) {
  V = V->stripPointerCasts();
  if (auto *F = dyn_cast<Function>(V)) {
    Out.push_back(F);
    return true;
  }
  if (!Seen.insert(V).second)
    return true;
  if (Seen.size() > 16)
    return false;
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return collectAlternatives(Sel->getTrueValue(), Out, Seen) &&
           collectAlternatives(Sel->getFalseValue(), Out, Seen);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](const Value *In) {
      return collectAlternatives(In, Out, Seen);
    });
  return false;
}

/// An indirect call that chooses between functions (a select or phi; one
/// function alone was made a direct call, ConstantCallees.h) is what they
/// all are, when they share one allocation, deallocation or inactive row
/// (malloc or operator new): the builders of those kinds read only the
/// call's arguments, never its callee. Anything else stays Unknown.
CalleeInfo resolveAlternatives(const CallBase &Call) {
  SmallVector<const Function *, 4> Candidates;
  SmallPtrSet<const Value *, 8> Seen;
  if (!collectAlternatives(Call.getCalledOperand(), Candidates, Seen))
    return {CalleeKind::Unknown};
  const NamedKind *Common = nullptr;
  for (const Function *F : Candidates) {
    const NamedKind *Row = libraryRow(F->getName());
    if (!Row || F->getFunctionType() != Call.getFunctionType() ||
        (Common && (Row->Kind != Common->Kind || Row->Alloc != Common->Alloc)))
      return {CalleeKind::Unknown};
    Common = Row;
  }
  if (!Common)
    return {CalleeKind::Unknown};
  switch (Common->Kind) {
  case CalleeKind::Malloc:
  case CalleeKind::Calloc:
  case CalleeKind::AllocOut:
  case CalleeKind::Free:
  case CalleeKind::Inactive: {
    CalleeInfo Info{Common->Kind};
    Info.Alloc = Common->Alloc;
    return Info;
  }
  default:
    return {CalleeKind::Unknown};
  }
}

CalleeInfo classifyIntrinsic(const CallBase &Call, Intrinsic::ID ID) {
  if (isFPReduction(ID))
    return {CalleeKind::FPReduction};
  switch (ID) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
    return {CalleeKind::MemCopy};
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return {CalleeKind::MemSet};
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::nvvm_barrier_cta_sync_all:
  case Intrinsic::nvvm_barrier_cta_sync_aligned_count:
  case Intrinsic::nvvm_barrier_cta_sync_count:
  // __syncthreads_and/_or/_count: a barrier that also reduces a predicate.
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_and_all:
  case Intrinsic::nvvm_barrier_cta_red_or_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_all:
    return {CalleeKind::Barrier};
  case Intrinsic::nvvm_shfl_sync_idx_f32:
  case Intrinsic::nvvm_shfl_sync_up_f32:
  case Intrinsic::nvvm_shfl_sync_down_f32:
  case Intrinsic::nvvm_shfl_sync_bfly_f32:
    return {CalleeKind::WarpShuffle};
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
    return {CalleeKind::MaskedLoad};
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
    return {CalleeKind::MaskedStore};
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::prefetch:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
  case Intrinsic::pseudoprobe:
  case Intrinsic::is_fpclass:
  case Intrinsic::trap:
  case Intrinsic::ubsantrap:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::objectsize:
  case Intrinsic::expect:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
    return {CalleeKind::NoEffect};
  default:
    break;
  }
  if (const MathRule *R = lookupMathRule(Call))
    return {CalleeKind::Math, R};
  // Integer-only intrinsics (smax, ctpop, ...) carry no derivative.
  bool TouchesFP = Call.getType()->isFPOrFPVectorTy();
  for (const Use &U : Call.args())
    TouchesFP |=
        U->getType()->isFPOrFPVectorTy() || U->getType()->isPointerTy();
  return {TouchesFP ? CalleeKind::Unknown : CalleeKind::NoEffect};
}

/// Follows pointer casts and aliases from \p V; stops at anything else,
/// which is returned (a function, an interposable alias, an indirect callee).
const Value *followAliases(const Value *V) {
  // The verifier rejects cyclic aliases; the bound only keeps this total.
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    V = V->stripPointerCasts();
    auto *GA = dyn_cast<GlobalAlias>(V);
    if (!GA || GA->isInterposable())
      return V;
    V = GA->getAliasee();
  }
  return V;
}

} // namespace

Function *namedFunction(const Value *V) {
  return const_cast<Function *>(dyn_cast<Function>(followAliases(V)));
}

Function *calledFunction(const CallBase &Call) {
  if (Function *F = Call.getCalledFunction())
    return F;
  if (Call.isInlineAsm())
    return nullptr;
  Function *F = namedFunction(Call.getCalledOperand());
  return F && F->getFunctionType() == Call.getFunctionType() ? F : nullptr;
}

void addTransitiveCallers(const Module &M,
                          DenseSet<const Function *> &Functions) {
  DenseMap<const Function *, SmallVector<const Function *, 4>> Callers;
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calledFunction(*Call))
            Callers[Callee].push_back(&F);
  SmallVector<const Function *, 16> Work(Functions.begin(), Functions.end());
  while (!Work.empty())
    for (const Function *Caller : Callers.lookup(Work.pop_back_val()))
      if (Functions.insert(Caller).second)
        Work.push_back(Caller);
}

const GlobalAlias *interposableAlias(const Value *V) {
  return dyn_cast<GlobalAlias>(followAliases(V));
}

bool isInactiveLibraryType(Type *T) {
  auto *ST = dyn_cast<StructType>(T);
  if (!ST || !ST->hasName())
    return false;
  StringRef Name = ST->getName();
  return any_of(InactiveLibraryTypes, [&](StringRef Known) {
    StringRef Rest = Name;
    return Rest.consume_front(Known) && (Rest.empty() || Rest[0] == '.');
  });
}

CalleeInfo classifyCallee(const CallBase &Call) {
  if (RuleTable *Table = RuleTable::active())
    return Table->classify(Call);
  return resolveCallee(Call);
}

CalleeInfo resolveCallee(const CallBase &Call, const CustomRules *Custom) {
  const Function *F = calledFunction(Call);
  if (!F && isUnresolvedCallee(Call))
    return {CalleeKind::Unresolved};
  if (!F)
    return resolveAlternatives(Call);
  // The user's word overrides every built-in row.
  if (const CustomRule *R = Custom ? Custom->lookup(F) : nullptr) {
    if (R->Inactive)
      return {CalleeKind::Inactive};
    CalleeInfo Info{CalleeKind::Custom};
    Info.Custom = R;
    return Info;
  }
  if (Intrinsic::ID ID = F->getIntrinsicID())
    return classifyIntrinsic(Call, ID);
  if (const MathRule *R = lookupMathRule(Call))
    return {CalleeKind::Math, R};
  if (const ComplexRule *R = lookupComplexRule(Call)) {
    CalleeInfo Info{CalleeKind::ComplexMath};
    Info.Complex = R;
    return Info;
  }
  if (isWarpShuffleFunction(*F))
    return {CalleeKind::WarpShuffle};
  if (const MessageOperation *Op = messageOperationOfWrapper(F->getName())) {
    CalleeInfo Info{CalleeKind::Message};
    Info.Message = Op;
    return Info;
  }
  if (const NamedKind *Row = libraryRow(F->getName())) {
    CalleeInfo Info{Row->Kind};
    Info.Alloc = Row->Alloc;
    Info.Mirror = Row->Mirror;
    return Info;
  }
  if (!F->isDeclaration())
    return {CalleeKind::Defined};
  return {CalleeKind::Unknown};
}

bool isExtremeSearch(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && Callee->getName().starts_with("__ad_first_equal.");
}

bool isLibraryMathCall(const CallBase &Call) {
  if (Call.isInlineAsm() || !classifyCallee(Call).Rule)
    return false;
  auto *II = dyn_cast<IntrinsicInst>(&Call);
  if (!II)
    return true;
  switch (II->getIntrinsicID()) {
  case Intrinsic::sqrt:
  case Intrinsic::fabs:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::minimumnum:
  case Intrinsic::maximumnum:
  case Intrinsic::copysign:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
    return false;
  default:
    return true;
  }
}

} // namespace ad
