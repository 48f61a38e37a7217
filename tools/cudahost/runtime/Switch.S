// Switch.S - the fiber context switch of the cuda-host-run scheduler (x86-64).
//
// cudahost_switch(void **Save, void *To) saves the callee-saved registers and
// the floating-point control words on the current stack, stores the stack
// pointer in *Save and resumes the context whose stack pointer is To. A new
// fiber's stack is prepared (Scheduler.cpp) so that its first resumption
// "returns" into cudahost_fiber_start with the function in r12 and its
// argument in rbx. No signal mask is saved: fibers never change it, and
// leaving it out spares the system call swapcontext makes.

        .text
        .globl  cudahost_switch
        .type   cudahost_switch,@function
cudahost_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        subq    $8, %rsp
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   cudahost_switch, .-cudahost_switch

        .globl  cudahost_fiber_start
        .type   cudahost_fiber_start,@function
cudahost_fiber_start:
        movq    %rbx, %rdi
        callq   *%r12
        ud2
        .size   cudahost_fiber_start, .-cudahost_fiber_start

        .section .note.GNU-stack,"",@progbits
