//===- Passes.td - txlgpu passes ---------------------------*- tablegen -*-===//
#ifndef TXLGPU_PASSES_TD
#define TXLGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CombineDotAccumulate : Pass<"txlgpu-combine-dot-accumulate", "mlir::ModuleOp"> {
  let summary = "Fold `acc + dot(a, b)` into the dot's accumulator";
  let description = [{
    `acc += tl.dot(a, b)` is a dot with a zero accumulator followed by an
    addition. Tensor cores accumulate for free, so the addition becomes the
    dot's accumulator operand (as Triton does): one tensor-core chain, no
    zero-initialized registers and no extra adds per iteration.
  }];
}

def SliceTensorMemoryLoads : Pass<"txlgpu-slice-tensor-memory-loads", "mlir::ModuleOp"> {
  let summary = "Read column slices of a tensor-memory buffer as slices";
  let description = [{
    A tmem_load whose every use is an extract_slice of all rows and a
    power-of-two run of whole 32-bit columns becomes one tmem_load per
    slice of that slice's columns (a memdesc_view, as txl.tmem_slice),
    placed where the whole load was. Each part then gets the 32x32b
    message layout itself: with 8 warps a column half of the whole tile
    lives in one warpgroup, and slicing the registers would convert the
    whole tile through shared memory.
  }];
}

def PrefetchLoopLoads : Pass<"txlgpu-prefetch-loop-loads", "mlir::ModuleOp"> {
  let summary = "Issue a loop's operand loads one iteration ahead";
  let description = [{
    In a scf.for whose body loads the operands of a tl.dot from global
    memory, the loads of iteration i+1 are issued at the end of iteration
    i (their addresses recomputed from the values the iteration yields) and
    carried into the next iteration, with one load before the loop. A
    global load only stalls when its result is used, so the memory latency
    of the next tile overlaps this iteration's shared-memory copy and
    tensor-core work. The copies are predicated on the iteration existing,
    so no address past the loop is touched.
  }];
}

def AssignLayouts : Pass<"txl-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Give every tensor a layout: txl tile IR to txlgpu IR";
  let description = [{
    Picks one coalesced blocked layout per tensor shape from the memory
    accesses of that shape (vector width from the axis analysis), gives
    reductions' results slice layouts, and inserts convert_layout where an
    op needs its operand in another layout (expand_dims, broadcast).
    Records num_warps / threads_per_warp / num_warpgroups / target on the
    module. The front end records num_warps / num_warpgroups / target in
    the tile IR already; those win over this pass's options, so a dumped
    .txlir replays with no options restated (edit the attributes to change
    them).
  }];
  let options = [
    Option<"numWarps", "num-warps", "int", "4", "warps per warpgroup">,
    Option<"numWarpgroups", "num-warpgroups", "int", "1", "warpgroups per CTA">,
    Option<"threadsPerWarp", "threads-per-warp", "int", "32", "lanes per warp">,
    Option<"target", "target", "std::string", "\"sm_90a\"", "GPU target">
  ];
  let dependentDialects = ["mlir::txlgpu::TXLGPUDialect"];
}

def RemoveLayoutConversions : Pass<"txlgpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Rematerialize cheap values in the layout their users need";
  let description = [{
    A convert_layout whose source is cheap to recompute (make_range, splat,
    constants, and elementwise ops over those) is replaced by recomputing
    the source directly in the destination layout, so index arithmetic
    never goes through shared memory. Where the recomputation reaches a
    value it cannot recompute but that is smaller than the conversion (a
    row statistic broadcast over a tile), that value is converted instead,
    as long as all such conversions together move fewer elements.
  }];
}

def PipelineAsyncCopies : Pass<"txlgpu-pipeline-async-copies", "mlir::ModuleOp"> {
  let summary = "Stream a loop's dot operands into shared memory with cp.async, S stages deep";
  let description = [{
    A loop whose wgmma reads two tiles it loads from global memory gets
    S-stage shared buffers per operand (S = the loop's num_stages, else the
    pass option), filled by cp.async S-1 iterations ahead of the wgmma that
    reads them; one wgmma group stays in flight. The loop-carried pointers
    run S-1 iterations ahead of the loop counter. Copies of iterations past
    the end are skipped. On sm_100a the same loops with a plain dot's
    tcgen05 MMA are taken too: the accumulator stays in tensor memory for
    the whole loop, the MMAs of each iteration commit to the mbarrier of
    their stage (a ring of S, count 1), and each iteration's copies into a
    stage first wait for the commit of the MMAs that last read it; every
    thread waits for the last commit after the loop, then reads the
    accumulator. Loops it cannot take (non-zero `other`, copies under 4
    bytes, pointers used for anything but addresses) are left unchanged.
  }];
  let options = [
    Option<"numStages", "num-stages", "int64_t", "3",
           "stages when the loop does not say (tl.range num_stages)">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def PipelineTMALoads : Pass<"txlgpu-pipeline-tma-loads", "mlir::ModuleOp"> {
  let summary = "Issue a loop's desc.load TMA copies S-1 iterations ahead, in a ring of S stages";
  let description = [{
    A desc.load in a scf.for is a synchronous TMA copy into a tile of its
    own: each iteration waits for its bytes. In a loop that issues a wgmma
    (AssignLayouts lets it read desc.load tiles in place), each such copy
    whose readers
    (smem_load, or a wgmma waited for at once) are done within the
    iteration gets S tiles and S mbarriers (S = the loop's num_stages,
    else the pass option, fewer where they would not fit the target's
    shared memory next to what is live during the loop -- other tiles, the
    rings of the loops around it and in it, its ops' largest scratch --,
    down to one; a ring is dead once its loop ends, so loops one after the
    other share bytes): the
    copies of iterations 0..S-2 are issued before
    the loop, iteration i issues those of iteration i+S-1 (expect_tx and
    TMA by one thread, after a CTA barrier frees the stage iteration i-1
    read; it fences the generic proxy only where threads read the tiles
    with smem_load, not where only wgmmas do) and waits on barrier i % S, parity (i / S) & 1, where the
    synchronous copy was. Coordinates run ahead by evaluating the body's
    arithmetic at iv + (S-1)*step and at the loop-carried values of that
    iteration (extra iter args, advanced by the body's own updates).
    Copies of iterations past the end are skipped. Loops with a non-constant
    or non-positive step, coordinates that are not pure arithmetic, a
    descriptor that changes in the loop, or `warp_specialize` are left
    unchanged.
  }];
  let options = [
    Option<"numStages", "num-stages", "int64_t", "3",
           "stages when the loop does not say (tl.range num_stages)">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def PipelineWarpGroupDots : Pass<"txlgpu-pipeline-warp-group-dots", "mlir::ModuleOp"> {
  let summary = "Keep one wgmma group in flight across loop iterations";
  let description = [{
    A loop that stages its dot operands into shared memory (local_alloc),
    issues a wgmma and waits for it at once gets two staging buffers per
    operand used alternately, and waits for all but the newest group
    (`warp_group_dot_wait {pendings = 1}`): iteration i+1's copy into the
    other buffer overlaps iteration i's tensor-core work, and the group that
    read that buffer (i-1) has retired before it is overwritten. One wait
    for everything follows the loop. Loops stay synchronous when fewer than
    two stages are asked for (num_stages, or tl.range's) or when the two
    stages plus one more copy of the operands (room for the layout
    conversions that produce them) exceed the target's shared memory.

    In a CTA of one warpgroup, a loop with several dots, each waited for at
    once, whose last dot accumulates a value that the next iteration reads
    only after its first `warp_group_dot_wait {pendings = 0}` keeps that
    dot in flight across the back edge (attention's O += P V runs under the
    next S = Q K^T): its wait goes, the first wait also returns the
    accumulator, and the ring refills of txlgpu-pipeline-tma-loads move
    after that wait. Taken only when the dot's shared operands are written
    in the loop by nothing but compiler-made rings of two or more stages,
    its register operand is a renaming of an mma accumulator (or made
    outside the loop), and the loop has no mbarriers of the user's and runs
    on every thread.
  }];
  let options = [
    Option<"numStages", "num-stages", "int64_t", "3",
           "the kernel's num_stages: below 2 the loops stay synchronous">
  ];
}

def PipelineTCGen05Dots : Pass<"txlgpu-pipeline-tcgen05-dots", "mlir::ModuleOp"> {
  let summary = "Keep a plain dot's accumulator in tensor memory and its MMAs in flight (sm_100a)";
  let description = [{
    A loop whose plain tl.dot became a synchronous tcgen05 MMA (AssignLayouts:
    accumulator stored to TMEM, operands staged by local_alloc, commit and
    wait, accumulator read back, every iteration) keeps the accumulator in
    tensor memory across the loop instead: stored once before it, read once
    after every thread waited for the last commit. The operands get two
    shared stages used alternately; the MMAs of each iteration commit to
    their stage's mbarrier, which the iteration two later waits on before
    restaging, so copying the next slice overlaps this slice's MMAs. This
    is the fallback for loops txlgpu-pipeline-async-copies cannot stream
    (it takes the others first, S stages deep). Loops
    whose MMA does not accumulate a loop-carried value from operands staged
    in the loop (or that read the accumulator inside the loop) are left
    alone, as are all Hopper and sm_80 loops (they have no tcgen05 MMAs).
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def AssignSharedLayouts : Pass<"txlgpu-assign-shared-layouts", "mlir::ModuleOp"> {
  let summary = "Choose the shared layouts of txl.smem_alloc buffers";
  let description = [{
    Buffers that TMA or wgmma use get the row-major NVMMA layout with the
    widest swizzle their rows allow (the swizzle the TMA descriptor is then
    encoded with); others the unswizzled one. Stages (memdesc_index) and
    views (memdesc_view: transposes, slices) derive theirs from the buffer.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def AllocateSharedMemory : Pass<"txlgpu-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Place every shared-memory buffer, reusing bytes by liveness";
  let description = [{
    Every shared buffer gets a `txlgpu.shared_offset`: the scratch of an op
    that exchanges data through shared memory (layout conversions,
    cross-warp reductions, atomics), tiles (local_alloc), buffer arrays
    (smem_alloc), mbarriers and in-kernel descriptor slots; the module gets
    the total `txlgpu.shared` bytes. Buffers whose live intervals
    (SharedMemoryLiveness.h) do not overlap may share bytes: the largest are
    placed first, each at the lowest aligned offset clear of the buffers it
    interferes with. Where a buffer takes over bytes another used, a
    `txlgpu.barrier` goes before each access that can come first, unless
    that access starts with a barrier itself. Kept whole (live for the
    kernel): mbarriers, descriptor slots, buffers with a user the analysis
    does not know, and, with several warpgroups (which run unordered), every
    tile and the scratch area, one part per warpgroup
    (`txlgpu.scratch_offsets`), each part sized by the ops its threads may
    run (ThreadValues: the role checks around an op).
  }];
}

def CheckMBarrierProtocol : Pass<"txlgpu-check-mbarrier-protocol", "mlir::ModuleOp"> {
  let summary = "Report mbarrier protocols that provably hang or complete early";
  let description = [{
    An mbarrier phase completes after as many arrivals as its init count
    (txl.mbar_alloc) and once every byte announced by expect_tx has landed;
    a wrong count hangs the kernel or lets a consumer read a tile in flight,
    with no error anywhere. This pass checks each kernel's barriers (Hopper
    and Blackwell alike) and reports, located at the source:
    - a site whose one execution arrives more often than a phase takes: an
      arrive run by a whole warpgroup (128 arrivals) on a barrier of count
      1 (threads are counted from the scf.if conditions around the site,
      evaluated per thread id: roles, `tid == 0`, predicates);
    - an mbar_expect or tma_load (issued by the first thread of each
      warpgroup that runs it) where no such thread runs, e.g. `is_warp([1])`;
    - per phase: the arrivals of one round of the code that signals a
      barrier (one execution of the loop body, or straight-line block, the
      sites are in; tcgen05 commits and expects count 1, an arrive one per
      thread) against the init count, and the expect_tx bytes against the
      bytes of the TMA boxes completing on it in that round;
    - trip counts: a role that signals a barrier and a role that waits on it
      running loop nests that are equal but for one loop whose bounds
      provably differ (`range(num_k)` against `range(num_k - 1)`).
    It stays silent where it cannot decide, which includes: arrivals under a
    condition that varies per thread other than the thread id (elect.sync,
    loaded values) or under a uniform condition that is not matched by the
    same signals in the other branch; barriers a round indexes at two
    stages; signals split over several blocks of one role (a prologue and
    a loop) or over roles whose loops differ; phases not paced by a wait in
    a loop like the signaller's; remote arrivals, multicast and cta_group::2
    copies (a peer CTA's share is not visible here); tma_gather bytes;
    loop bounds that are not equal up to a constant offset; barriers chosen
    at run time (then no per-phase total is checked at all). desc.load's
    private barriers are the compiler's own and are skipped.
  }];
}

def AllocateTensorMemory : Pass<"txlgpu-allocate-tensor-memory", "mlir::ModuleOp"> {
  let summary = "Place txl.tmem_alloc buffers in the CTA's tensor memory";
  let description = [{
    Blackwell's tensor memory (512 columns of 128 lanes of 32 bits per SM)
    is allocated by one warp with tcgen05.alloc, in a power-of-two number
    of columns >= 32, and must be freed before the CTA exits. Every
    tmem_alloc gets its first `column` (in program order), the first one
    the CTA's whole allocation (`allocColumns`), and a tmem_dealloc of it
    is inserted before each return of the kernel. More than 512 columns is
    a located error.
  }];
}

#endif
