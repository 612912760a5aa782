// RUN: txl-opt %s -split-input-file --txlgpu-check-mbarrier-protocol -verify-diagnostics
// Each rule of the mbarrier-protocol check, with a kernel it rejects and
// the nearest one it accepts (or cannot decide, and so accepts).

// One execution of an arrive by a whole warpgroup (threads 128..255) is 128
// arrivals; a barrier of count 1 completes 128 phases with it.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @warpgroup_arrives_on_count_one() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c7 = arith.constant 7 : i32
    %b = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    scf.if %is1 {
      // expected-error @+1 {{one execution of this mbar_arrive makes 128 arrivals (one per thread that runs it), but the mbarrier allocated at line 12:10 completes a phase every 1 arrival}}
      txlgpu.mbar_arrive %b : <1xi64, #txlgpu.barrier>
    }
    return
  }
}

// -----

// The same role arriving on a barrier of count 128, and one elected thread
// (tid % 128 == 0, as a predicate) on a barrier of count 1: both right.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @warpgroup_arrives_right() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c7 = arith.constant 7 : i32
    %c128 = arith.constant 128 : i32
    %all = txlgpu.mbar_alloc {arriveCount = 128 : i32} : <1xi64, #txlgpu.barrier>
    %one = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    %lane = arith.remui %tid, %c128 : i32
    %leader = arith.cmpi eq, %lane, %c0 : i32
    scf.if %is1 {
      txlgpu.mbar_arrive %all : <1xi64, #txlgpu.barrier>
      txlgpu.mbar_arrive %one, %leader : <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %all, %c0 : <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %one, %c0 : <1xi64, #txlgpu.barrier>
    }
    return
  }
}

// -----

// expect_tx and TMA loads are issued by the first thread of a warpgroup:
// in warp 1's role (threads 32..63) they never happen.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 1 : i32} {
  func.func @expect_in_warp_one(%d: !txlgpu.tensordesc<64x64xf16>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c5 = arith.constant 5 : i32
    %c8192 = arith.constant 8192 : i32
    %buf = txlgpu.smem_alloc : <1x64x64xf16>
    %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16> -> <64x64xf16>
    %b = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is1 = arith.cmpi eq, %warp, %c1 : i32
    scf.if %is1 {
      // expected-error @+1 {{txl.mbar_expect is issued by the first thread of a warpgroup, and no warpgroup's first thread runs this code (it runs on warp 1)}}
      txlgpu.mbar_expect %b, %c8192 : <1xi64, #txlgpu.barrier>
      // expected-error @+1 {{txl.tma_load is issued by the first thread of a warpgroup}}
      txlgpu.tma_load %d[%c0, %c0] -> %t, %b : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
    }
    return
  }
}

// -----

// The same in warp 0's role: issued once, 8192 bytes, one arrival.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 1 : i32} {
  func.func @expect_in_warp_zero(%d: !txlgpu.tensordesc<64x64xf16>) {
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    %c8192 = arith.constant 8192 : i32
    %buf = txlgpu.smem_alloc : <1x64x64xf16>
    %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16> -> <64x64xf16>
    %b = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is0 = arith.cmpi eq, %warp, %c0 : i32
    scf.if %is0 {
      txlgpu.mbar_expect %b, %c8192 : <1xi64, #txlgpu.barrier>
      txlgpu.tma_load %d[%c0, %c0] -> %t, %b : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %b, %c0 : <1xi64, #txlgpu.barrier>
    }
    return
  }
}

// -----

// A warp-specialized ring: warp 0 loads, warpgroup 1 waits, one phase per
// iteration. Each round arrives once (the expect), but the barrier counts 2.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @ring_count_two(%d: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c8192 = arith.constant 8192 : i32
    %buf = txlgpu.smem_alloc : <2x64x64xf16>
    // expected-error @+1 {{this mbarrier completes a phase every 2 arrivals, but each round of the code that signals it (line 123:9, line 124:9) makes 1}}
    %full = txlgpu.mbar_alloc {arriveCount = 2 : i32} : <2xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is0 = arith.cmpi eq, %warp, %c0 : i32
    scf.if %is0 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %t = txlgpu.memdesc_index %buf[%s] : <2x64x64xf16> -> <64x64xf16>
        txlgpu.mbar_expect %bar, %c8192 : <1xi64, #txlgpu.barrier>
        txlgpu.tma_load %d[%c0, %c0] -> %t, %bar : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      }
    }
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    scf.if %is1 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %q = arith.divsi %k, %c2 : i32
        %p = arith.andi %q, %c1 : i32
        txlgpu.mbar_wait %bar, %p : <1xi64, #txlgpu.barrier>
      }
    }
    return
  }
}

// -----

// The same ring announcing half the bytes its box delivers.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @ring_bytes(%d: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c4096 = arith.constant 4096 : i32
    %buf = txlgpu.smem_alloc : <2x64x64xf16>
    %full = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is0 = arith.cmpi eq, %warp, %c0 : i32
    scf.if %is0 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %t = txlgpu.memdesc_index %buf[%s] : <2x64x64xf16> -> <64x64xf16>
        // expected-error @+1 {{each phase of the mbarrier allocated at line 154:13 expects 4096 bytes, but the TMA copies completing on it in the same phase (line 164:9, line 165:9) deliver 8192}}
        txlgpu.mbar_expect %bar, %c4096 : <1xi64, #txlgpu.barrier>
        txlgpu.tma_load %d[%c0, %c0] -> %t, %bar : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      }
    }
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    scf.if %is1 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %q = arith.divsi %k, %c2 : i32
        %p = arith.andi %q, %c1 : i32
        txlgpu.mbar_wait %bar, %p : <1xi64, #txlgpu.barrier>
      }
    }
    return
  }
}

// -----

// The consumer waits n times, the producer signals n - 1 times: the last
// wait never completes.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @ring_trips(%d: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c8192 = arith.constant 8192 : i32
    %buf = txlgpu.smem_alloc : <2x64x64xf16>
    %full = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is0 = arith.cmpi eq, %warp, %c0 : i32
    %n1 = arith.subi %n, %c1 : i32
    scf.if %is0 {
      scf.for %k = %c0 to %n1 step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %t = txlgpu.memdesc_index %buf[%s] : <2x64x64xf16> -> <64x64xf16>
        txlgpu.mbar_expect %bar, %c8192 : <1xi64, #txlgpu.barrier>
        txlgpu.tma_load %d[%c0, %c0] -> %t, %bar : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      }
    }
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    scf.if %is1 {
      // expected-error @+1 {{this loop waits on the mbarrier allocated at line 196:13 (at line 219:9) 1 more time than the loop at line 202:7 signals it (at line 206:9, one phase per iteration): the last wait never completes}}
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %q = arith.divsi %k, %c2 : i32
        %p = arith.andi %q, %c1 : i32
        txlgpu.mbar_wait %bar, %p : <1xi64, #txlgpu.barrier>
      }
    }
    return
  }
}

// -----

// Accepted: the waiter runs one iteration fewer (a phase left over at exit
// hangs nothing), and a producer whose waits for a free stage start at
// parity 1 (^ 1: they pass at once on a new barrier) runs one more
// iteration than the consumer that frees stages. An arrive under a uniform
// condition with nothing in the other branch is not counted per phase.
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.num_warpgroups = 2 : i32} {
  func.func @accepted(%d: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c8192 = arith.constant 8192 : i32
    %buf = txlgpu.smem_alloc : <2x64x64xf16>
    %full = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64, #txlgpu.barrier>
    %empty = txlgpu.mbar_alloc {arriveCount = 128 : i32} : <2xi64, #txlgpu.barrier>
    %done = txlgpu.mbar_alloc {arriveCount = 256 : i32} : <1xi64, #txlgpu.barrier>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %is0 = arith.cmpi eq, %warp, %c0 : i32
    %n1 = arith.subi %n, %c1 : i32
    scf.if %is0 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %q = arith.divsi %k, %c2 : i32
        %p = arith.andi %q, %c1 : i32
        %free = arith.xori %p, %c1 : i32
        %e = txlgpu.memdesc_index %empty[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        txlgpu.mbar_wait %e, %free : <1xi64, #txlgpu.barrier>
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %t = txlgpu.memdesc_index %buf[%s] : <2x64x64xf16> -> <64x64xf16>
        txlgpu.mbar_expect %bar, %c8192 : <1xi64, #txlgpu.barrier>
        txlgpu.tma_load %d[%c0, %c0] -> %t, %bar : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      }
    }
    %wg = arith.shrui %tid, %c7 : i32
    %is1 = arith.cmpi eq, %wg, %c1 : i32
    scf.if %is1 {
      scf.for %k = %c0 to %n1 step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %bar = txlgpu.memdesc_index %full[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        %q = arith.divsi %k, %c2 : i32
        %p = arith.andi %q, %c1 : i32
        txlgpu.mbar_wait %bar, %p : <1xi64, #txlgpu.barrier>
        %e = txlgpu.memdesc_index %empty[%s] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
        txlgpu.mbar_arrive %e : <1xi64, #txlgpu.barrier>
        %last = arith.cmpi eq, %k, %n1 : i32
        scf.if %last {
          txlgpu.mbar_arrive %done : <1xi64, #txlgpu.barrier>
        }
      }
      txlgpu.mbar_wait %done, %c0 : <1xi64, #txlgpu.barrier>
    }
    return
  }
}
