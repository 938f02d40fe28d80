"""float32 and float64 matrix products in the order torch's CPU kernels sum them, where that order
is known.

MKL picks its sgemm/sgemv/sdot kernels by CPU vendor, so the rules are per vendor; products of
a vendor with no measured rules (and shapes no rule covers) return None and the caller falls
back to np.matmul.  Both sets were found by experiment (random operands compared bit for bit,
operands that reveal fused products and the summation tree) on torch 2.13.0's CPU wheel
(MKL 2024.2, its naive bmm kernel) running one thread (OMP_NUM_THREADS=1), and
tests/differential/test_matmul_bits.py re-checks the running machine's set against torch.

Intel (a Xeon with AVX-512):

* fused chain: each entry is acc = fma(a[i,k], b[k,j], acc) for k in order from +0, in the
  shapes and layouts listed in `_intel_fma_chain`; sums of more than 384 terms in blocks
  (`_intel_k_blocks`), each block's chain added in turn; on two threads a sum of more than 768
  terms in a product of more than 192,000 multiply-adds is split in halves, one a thread
  (`_intel_blocked`).  addmm's bias is added at the end (it starts the blocks' sum), except for
  one-row or one-column results (MKL's matrix-vector kernel, `_intel_matrix_vector`): one chain
  from the bias however long, on two threads split in halves from 256 terms on, the bias then
  added last.
* column-major matrix times a vector (`_intel_column_gemv`, MKL's sgemv over columns): a one-row
  result of a row-major B (x @ W of one sample), a one-column result of a column-major A
  (A.t() @ x, mv of a transposed matrix, addmv), from the bias. The outputs in whole sixteens
  take the terms in blocks of eight (`_eight_column_blocks`: terms 6 and 4 fused into the sum
  so far, which is added to 5 fused onto the rounded 7, and that to the sum of 0 fused onto
  the rounded 2 and 1 onto the rounded 3), the terms after the last whole eight fused in turn;
  the last outputs % 16 (every output below 16) take one fused chain each.  On two threads the
  terms are split in halves from 256 on (not for 41..69 outputs below 1000 terms), each half
  from +0, the bias added after their sum.  Found with one huge term and its negation among
  ones; measured bit for bit on 2..30,000 terms by 2..300 outputs, the five forms, one and two
  threads.
* sixteen lanes (`sixteen_lanes`, `_short_dots`): x @ W.t() with one row or one column of
  outputs (F.linear of one sample, 1-D or one row; mv, addmv, a one-output F.linear), up to
  50,001 terms (10,000 on two threads): the outputs in whole fours start lane 0 from the
  rounded first term, fuse terms 1..16j (the whole sixteens after it) into lane (k - 1) % 16,
  halve the lanes pairwise, then fuse the remaining terms into fresh lanes whose lane 0 starts
  from that sum, and halve again; the last one to three outputs set the first term apart, sum
  terms 1..K-1 as `lane_dots` sums a row (the even outputs in two sets of lanes, the odd ones
  in one), then add the first term.  addmm's (addmv's) bias is added at the end.  On two
  threads MKL splits the outputs of longer products (the first ceil(count / 2) apart), and each
  thread's share sums as one call (`_intel_dot_split`).
* dot (`_intel_dot`, MKL's AVX-512 sdot and ddot): four accumulators of a register's fused lanes
  (sixteen floats, eight doubles), the registers of each four in turn, the rest into the first
  two; the lanes summed pairwise.
* sixteen-lane dots (`lane_dots`): x @ W.t() of two or more rows and columns that the fused
  chain does not take (2 or 3 columns, or fewer terms than columns when the columns outnumber
  the rows, below 12) with fewer than 24 terms a row: the odd rows fuse term k into lane k %
  16 from +0; the even rows fuse the first sixteen terms of every whole 32 into one set of
  sixteen lanes and the second sixteen into another, add the sets lane by lane and fuse the
  remaining terms into that sum (lane (k - 32j) % 16); the lanes halved pairwise (l + l + 8,
  then + 4, + 2, + 1); addmm's bias is added at the end.
* grouped dots (`grouped_dots`): x @ W.t() of 2..15 rows and any number of columns with 24 or
  more terms a row (k >= 24 m, where the fused chain and the lanes above stop): term j fused
  into lane j % 16 from +0 (every row alike), then the four groups of four lanes added in turn,
  ((g0 + g1) + g2) + g3, and their lanes as (l0 + l1) + (l2 + l3); addmm's bias at the end.
  On two threads, products of 4 or more rows past 192,000 multiply-adds take the blocked
  chains instead (`_intel_blocked`, the bias first: `_threads_take_blocked`), except where k or
  n is a multiple of 256 (grouped still) and for 33 or 34 outputs (those stay unclaimed).
  Found with one huge term and its negation among ones (the terms they swallow give each
  sum's tree) and with a product whose rounding shows whether it was fused into the lane
  before it (the even and odd rows and outputs differ there).  Measured on one and two threads,
  with and without bias (F.linear and x @ W.t() + b): see "Measured coverage" below.
* one term with a bias (`_rank_one`: addmm of an (m, 1) by (1, n) product, F.linear of one
  input feature): each entry one fused multiply-add from the bias, float32 and float64, except
  in the matrix-vector kernel's shapes (a one-column result of a row-major A, a one-row result
  of a column-major B), where the rounded product is added to the bias.  Measured on 1..257
  rows by 1..129 columns, the four layouts, 1-D, row and full biases, every draw exact.

Measured coverage: of 1500 random shapes (m, k, n drawn from 1..70 and 100..500, the four
layouts, ten operand draws each with and without bias) about 1380 (92%) are claimed, all
exact; of a grid of 840 NN/NT shapes (m up to 32, k 2..64, n up to 32) 690 are claimed, all
exact.  Two threads (torch's default there) sum these shapes the same way.  Sixteen lanes,
sixteen-lane and grouped dots (every draw exact; each shape drawn as x @ W.t(), F.linear with a
bias and x @ W.t() + b): one row of 1..8 outputs by every k from 2 to 129 and k 130..2000 in
steps of 37 (1,440 shapes, two draws, 9,000 products per run); one column (mm and mv) of 2..101
rows by 18..2000 terms (1,239 shapes, two draws, 9,912 products); 2..15 rows by 2 or 3 outputs
(the lane shapes) with every k from 32 to 24 m - 1 (3,416 shapes, 10,248 products); 2..15 rows
by 2..100 outputs and 24 m..3001 terms (2,002 shapes, 6,006 products); each on one thread and
on two (unclaimed there, as MKL may split them: 704 of the one-column products, 1,605 of the
grouped ones); one row of 9..257 outputs by 18..2000 terms (252 shapes on two threads, 627 of
756 products claimed; 98 on one, all claimed); one row of 1..17 outputs and one column of 2..30
rows by 2001..50,001 terms (116 shapes on one thread, 348 products, all claimed; 304 shapes on
two, 488 of 912 products claimed); x or W sliced from rows 1..5 floats wider (1,040 products).
Not reproduced: one-row and one-column sums of more than 50,001 terms (10,000 on two
threads); other one-column results of a row-major A; dot of more than 8000 terms on two
threads; of sums longer than 384 terms, x @ W.t() of fewer than 16 rows outside the grouped
dots and blocked chains; on two threads, x @ W.t() of 100..147 rows by many outputs over
769..799 terms (MKL shares the outputs there, not the terms: `_threads_share_outputs`).

AMD (EPYCs: Zen 4 and Zen 5 with AVX-512, and one with AVX2 only):

torch's mm/addmm/mv call MKL's sgemm with the result column-major (torch's C transposed) unless
the result has one column; the kernel MKL picks depends on the shape and on whether each operand
is row- or column-major (after torch's own choice, copied below from addmm_impl_cpu_):

* blocked fused chains (`blocked_fma_chain`), on Zen 5 and the AVX2 EPYC (Zen 4's kernel for
  these is not known): every product of at least four rows and twelve columns, every layout:
  each entry a fused chain, sums of more than 192 terms in blocks (`_k_blocks`), each block's
  chain added in turn to addmm's bias, which starts the sum.
* sequential: acc = fl(acc + fl(a[i,k] * b[k,j])) for k = 0..K-1, no fused multiply-add.  The
  smaller products (M < 4 or N < 12) of the shapes listed in `_sequential` take it (on Zen 5
  the B row-major ones are peeled columns, below); addmm's bias starts the accumulator
  (row-major A and B, N > 1) or is added at the end (others).
* peeled columns (`peeled_columns`, on Zen 5): B row-major (NN, TN: grad @ W, grad.t() @ x),
  two or more columns, outside the blocked shapes: every entry sequential from addmm's bias,
  except that row i of the result (i * n floats into its aligned storage) sums the entries
  before its first 16-byte boundary ((-i * n) % 4 of them, when four or more columns follow)
  apart: in each whole eight terms the second four are summed from +0 and their sum added.
  Measured with and without bias on one and two threads: m 2..1000, k 8..3000 (shorter sums
  have no whole eight), n 2..1001, leading dimensions padded by up to four, about 20,000
  products, every draw exact.
* matrix-vector rows (`gemv_rows`): a one-column result of a row-major A (mv, F.linear to one
  output, x @ w) and a one-row x @ W.t() (F.linear of one sample, summed over the rows of W)
  are one MKL kernel: each entry a dot of a row (lda floats apart) with the vector, without
  FMA.  Rows in whole blocks of four: the first P = ((lda - 1) % 4) + 1 terms sequentially into
  lane 0, then four lanes over the next multiple of 4 terms (lane l += term P + l mod 4), then
  (lane0 + lane2) + (lane1 + lane3), then the rest sequentially (none when lda = K).  The last
  M % 4 rows (on Zen 5): 4 terms into lane 0, then the next multiple of 8 terms in eight lanes
  (the second of them: in four), halved as in aligned dots, then the rest sequentially (all
  sequentially below 12 terms).  addmm's bias is added at the end.  The storage offset of A and
  of the vector is taken to be a multiple of four floats (it moves both peels).  Measured on
  Zen 5 with and without bias, one and two threads: 1..1001 rows (or columns) by 2..1000 terms,
  lda up to K + 8, about 12,000 products, every draw exact; elsewhere whole fours with lda = K
  only.  A 1 x 1 result with B row-major takes another kernel (`_sequential`).
* aligned dots (`aligned_dots`, on Zen 5): x @ W.t() (row-major A, column-major B) with two or
  more rows and columns, except the blocked shapes above: each entry a dot of row i of A and a
  row of W, without FMA.  Row i starts i * lda floats past torch's 64-byte aligned storage (a
  storage offset is taken to be a multiple of four floats); the terms before its first 16-byte
  boundary ((-i * lda) % 4 of them) go sequentially into lane 0, then whole fours of columns sum
  the next multiple of 4 terms in four lanes, the last n % 4 columns the next multiple of 8 in
  eight (lane l += term peel + l mod lanes, continuing lane 0), the lanes halved pairwise
  ((l0 + l2) + (l1 + l3), and from eight lanes l + l+4 first), then the remaining terms
  sequentially (all terms sequentially when no whole set of lanes follows the peel); addmm's
  bias is added at the end.  Measured with and without bias on one and two threads (identical):
  m 2..64, k 2..784, n 2..11 (and n up to 64 for 2 or 3 rows), lda > k, every draw exact (about
  5,000 products); one-row results are matrix-vector rows.
* dot: sequential for 2 or 3 terms, four lanes as above for 4, 8 and 16 terms.  On Zen 5
  (`_float_dot`, vectors at the start of their storage): four accumulators of four lanes without
  FMA, whole sixteens of terms into accumulator (term // 4) % 4, the one to three fours left
  alternately into accumulators 0 and 1, the last k % 4 terms in turn into lane 0 of
  accumulator 0, then ((a0 + a1) + a2) + a3 and (l0 + l2) + (l1 + l3).  Found by which terms a
  huge term and its negation swallow; exact on one thread for every k from 4 to 139 and lengths
  up to a million (eight draws each), on two threads up to 5,000 terms (longer sums split).
* bmm with M*K*N < 400 (every vendor, float32 and float64): torch's own naive loop,
  sequential, no FMA.  Larger bmm with one result column (on AMD, float32 and float64): MKL's
  batched kernel sums them sequentially too, not as matrix-vector rows (measured: 2..150 rows,
  7..1000 terms, A row- or column-major, one and two threads); larger bmm of several rows and
  one column elsewhere returns None (mm's matrix-vector rules do not hold there).  bmm of two
  or more entries of the blocked shapes (`blocked_batch`): each entry's blocked chains, summed
  whole on two threads as on one (MKL's batched kernel gives an entry to one thread, so no rows
  are split off as `_second_thread_rows` splits an mm's; a batch of one is an mm).

Measured on a grid of 16,456 products (m up to 64, k up to 500, n up to 64, four layouts, with
and without bias), on one thread: all claimed on the Zen 5 EPYC (91% before the matrix-vector
rows and peeled columns, 46% before the blocked rule was known to hold there; 99% on two
threads), 82% of a similar grid on the AVX2 one, every claim exact; the blocks
checked up to k = 100,003 (x @ W.t(), x @ W and F.linear, one and two threads) and products
up to 1000 x 4 x 1000.  On two threads MKL gives the rows past the first
multiple of four at or above M/2 to a second call, which sums them with the small-M kernels:
`_second_thread_rows` follows that (gradcli models as many threads as torch would take; on the
AVX2 EPYC two threads measured the same as one).

float64 on Zen 5 (dgemm, measured on the same grids with one and two threads): with B row-major
(NN and TN), whole tiles of four rows by twelve columns are each a fused chain and every other
entry a sequential sum, all from addmm's bias, when the columns past the last whole tile are even
in number (an odd count takes another kernel for some rows, not reproduced); TT products are
not reproduced.  x @ W.t() (`_double_dots`, two or more rows and columns): in products of four
or more rows and twelve or more columns, whole tiles of four rows by twelve columns are each a
fused chain from addmm's bias (up to k = 256; longer sums are blocked otherwise, not
reproduced); every other entry is a dot without FMA as in `aligned_dots` at half the width:
row i peels (-i * lda) % 2 terms (to its 16-byte boundary) into lane 0 (the rows past the last
whole four of a tiled product peel 2 - k % 2 instead), whole fours of columns then sum in two
lanes and the last n % 4 columns in eight, folded ((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 +
l7)), the rest sequentially, bias at the end.  Measured with and without bias on one and two
threads (identical): m 2..64, k 2..784, n 2..64, about 6,100 products per grid, every draw
exact; not reproduced: tiled products with rows and columns both left past the tiles, and
tiled products of more than 256 terms.

float64 matrix-vector rows (dgemv on Zen 5, `gemv_rows`): the shapes of the float32 rule (a
one-column result of a row-major A: mv, addmv, x @ w, F.linear to one output; a one-row x @
W.t(): F.linear of one sample) at half the width, without FMA.  Rows in whole blocks of four:
the first P = ((lda - 1) % 2) + 1 terms sequentially into lane 0, then two lanes over the next
even number of terms, l0 + l1, then the rest sequentially.  The last M % 4 rows peel two terms
and then sum the next multiple of 8 terms: one row left, in eight lanes folded as dgemm's dots
((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 + l7)); two or three left, the first in four lanes
((l0 + l2) + (l1 + l3)), the second in two, the third in eight (all sequentially when fewer than
8 terms follow the peel).  addmm's bias is added at the end; a 1 x 1 result with B row-major
(one row times a contiguous column) sums sequentially from the bias.  The storage offsets of A
and of the vector are taken to be even (measured exact; an odd one, a slice from an odd element,
moves the peels, which gradcli, not seeing storage offsets, does not follow).  Found by
comparing candidate lane counts, steps, peels and folds row by row against torch, which left
one; measured with and without bias on one and two threads (identical): m 1..200, k 2..1000, lda
up to k + 8, over 15,000 products, every draw exact.  Not reproduced: one-column results of a
column-major A.

float64 dot (ddot on Zen 5, `_double_dot`: torch.dot, real vdot, 1-D @ 1-D, inner): eight lanes
over the whole eights of terms (lane l += term 8j + l, without FMA), then the remaining terms
two at a time into lanes 0 and 1 (an odd last one into lane 0), then (((l0 + l2) + l4) + l6) +
(((l1 + l3) + l5) + l7); found with one huge term and its negation among powers of two (which
terms they swallow shows the tree).  Measured on one and two threads, every k from 2 to 1000,
three draws each, exact; vectors starting an odd number of elements into their storage sum
otherwise (not reproduced: embedding_bag's rows pass their offsets, gradcli does not see a
slice's).

float64 on Intel (dgemm, `_intel_double`; operands in torch's own 64-byte aligned storage):
every entry fused chains in k order, as sgemm's, with blocks by B's layout:

* B row-major (NN, TN) of two or more rows and columns: `_intel_k_blocks` (one chain up to 384
  terms, halves up to 768, then chains of 384 and the rest halved), the blocks' sums added in
  turn to addmm's bias; on two threads a sum of more than 768 terms in a product of more than
  96,000 multiply-adds (half sgemm's bound) is split in halves, each blocked as
  `_intel_k_blocks(half, True)`, the first from the bias.  Two rows of a row-major A (NN): one
  chain from the bias however long, except on two threads in products of more than 96,000
  multiply-adds (2 x 1000 x 50: blocked, split as above).
* B column-major (NT, TT): blocks of 192 (`_intel_double_column_blocks`: one chain up to 192
  terms, halves up to 384, then chains of 192 and the rest halved), summed as above.  Claimed
  for x @ W.t() of 4 or more rows (16 or more terms at 4), TT of 8 or more rows or of 40 or
  more terms and fewer columns than terms (6 x 40 x 100 is not), up to 100 columns, and on
  two threads only up to 80,000 multiply-adds (larger ones split their sums otherwise, with
  the bias in an order not found); TT of fewer rows and terms, and x @ W.t() of 4 rows and
  fewer than 16 terms, take other kernels (not reproduced).
* x @ W.t() of 2 or 3 rows (`_eight_lanes_by_fours`): each entry's term j fused into lane
  j % 8, the lanes summed ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7)), then the bias
  added (2..50,001 terms by 2..100 columns, one and two threads).
* one-row results of a row-major B and one-column results of a column-major A (the
  matrix-vector kernel): one chain from the bias however long; two threads split sums of more
  than 100 terms of the larger products (in halves, the bias last: 1 x 240 x 12, 33 x 200 x 1,
  1 x 1000 x 3; not reproduced), so there only up to 100 terms, or up to 250 terms in at most
  2,688 multiply-adds, are claimed.  A 1 x 1 result of a row-major B is the same chain.
* one-row x @ W.t() (F.linear of one sample), one-column results of a row-major A (mv) and
  1 x 1 results of a column-major B: each entry a dot in eight lanes (`_eight_lane_dots`:
  lane j % 8 takes term j, fused; each whole sixteen of terms into two sets of lanes, the
  first eight into one and the second into the other, the sets added lane by lane, then a
  last whole eight and the k % 8 terms left fused into that sum; the lanes summed
  ((l0 + l2) + (l1 + l3)) + ((l4 + l6) + (l5 + l7))), then the bias added; on two threads
  from 10,000 terms on each row's terms split in halves, the bias added to the first half's
  dot, then the second's (one row: split otherwise there, unclaimed).  Found with one huge
  term and its negation among ones; measured on 1..100 rows by 2..100,003 terms, with and
  without bias, one and two threads.

Measured with and without bias, the four layouts, m and n drawn from 1..100 and k from 2..2001
(up to 400,000 multiply-adds), two or three draws each: on one thread about 1,960 of 2,250
products claimed, on two threads about 2,100 of 2,640, every claim exact (after the bounds
above: 6 x 40 x 100 TT, 1 x k x 1 TT and 33 x 200 x 1 were wrong before); the bounds from
grids of NT and TT products (2..12 rows, 2..33 columns, 5..150 terms) and from sweeps of k
and of the product's size on two threads.

Everything else (large products, where MKL uses FMA kernels and blocking, or alignment-dependent
peeling) returns None.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.cascade_sum import THREADS, in_order
from gradcli.engine.cpu_capability import CAPABILITY, FAMILY, VENDOR
from gradcli.engine.fma import fma32, fma64, fma_accumulate, fused

# MKL dispatches on the CPU vendor: the AMD rules (`_sequential`, `four_lanes`, dot) hold there only
_AMD = VENDOR == "AuthenticAMD"
# MKL's larger products are blocked fused chains on the AVX2 EPYC and on Zen 5 (measured); the
# Zen 4 EPYC's kernel is not known
BLOCKED_KERNEL = _AMD and (CAPABILITY == "avx2" or FAMILY >= 26)
# float64 products, and float32 ones of 2 or 3 rows by any multiple of four columns, were
# measured on Zen 5 only
_AMD_ZEN5 = _AMD and FAMILY >= 26
# two threads split the rows on the AVX-512 EPYC (on the AVX2 one two threads measured as one)
_AMD_AVX512_THREADS = _AMD and CAPABILITY == "avx512" and THREADS > 1
_K_BLOCK = 192  # the longest sum MKL's kernel on AMD takes in one chain
_MAX_WORK = 1 << 25  # M * N * K beyond which the emulation would be too slow (about 0.1 s)
_MAX_DOUBLE_WORK = 1 << 20  # the same for float64, whose fused multiply-add is slower
_FLOAT_DOT_ONE_THREAD = 5000  # sdot sums this many terms on one thread however many it may use
_INTEL_LANE_DOT_ROWS = 24  # lane_dots holds for x @ W.t() of fewer than 24 terms a row
_INTEL_SHORT_DOT_K = 50001  # the longest one-row or one-column sum measured in _short_dots
_INTEL_SPLIT_DOT_K = 10000  # the same on two threads
_INTEL_GROUPED_WORK = 192_000  # grouped_dots on two threads: m * k * n whole up to this
_INTEL_K_BLOCK = 384  # the longest sum MKL's kernel on Intel takes in one chain
# dgemv's dots of rows on Intel: two threads split a row's terms from these on (measured)
_INTEL_DOUBLE_ROWS_SPLIT = 10_000
_INTEL_DOUBLE_ROWS_MEASURED = 100_003
# the most terms sdot and ddot sum on Intel on two threads as on one (measured)
_INTEL_FLOAT_DOT_ONE_THREAD, _INTEL_DOUBLE_DOT_ONE_THREAD = 8191, 4095
_INTEL_THREADED_WORK = 192_000  # multiply-adds past which two threads split a long sum there
_INTEL_THREADED_MATRIX_VECTOR = 256  # the shortest one-row or one-column sum two threads split
# but for a column-major matrix times a vector, not of 41..69 outputs below 1000 terms (measured)
_INTEL_UNSPLIT_OUTPUTS, _INTEL_UNSPLIT_TERMS = range(41, 70), 1000
_DOUBLE_TILE_K = 256  # the longest float64 x @ W.t() sum measured for tile-shaped products


def _strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


def layouts(a_strides, b_strides, m: int, k: int, n: int) -> tuple[bool, bool]:
    """Whether torch hands A and B to BLAS row-major (True) or column-major (False), as
    addmm_impl_cpu_ decides: operands neither way are copied row-major."""
    if n == 1:  # the result is column-major already: no swap
        a_row = not (a_strides[0] == 1 and a_strides[1] >= max(1, m))
        b_row = not (b_strides[0] == 1 and b_strides[1] >= max(1, k))
        return a_row, b_row
    b_row = b_strides[1] == 1 and b_strides[0] >= max(1, n)
    if not b_row and not (b_strides[0] == 1 and b_strides[1] >= max(1, k)):
        b_row = True
    a_row = a_strides[1] == 1 and a_strides[0] >= max(1, k)
    if not a_row and not (a_strides[0] == 1 and a_strides[1] >= max(1, m)):
        a_row = True
    return a_row, b_row


def _sequential(m: int, k: int, n: int, a_row: bool, b_row: bool) -> bool:
    """Shapes and layouts whose MKL kernel sums sequentially without FMA (measured)."""
    if k <= 3 or (k == 4 and not (a_row and not b_row)):
        return not (m >= 4 and n >= 12)
    if b_row:  # B row-major: NN (a_row) or TN
        if m == 1:
            return True
        if m <= 3:
            if k <= 7:
                return True
            if n == 1:
                return not a_row or k <= 9
            return n in (2, 3, 4, 5, 8, 12, 16) or (_AMD_ZEN5 and n % 4 == 0)
        if n == 1:
            return not a_row
        return 2 <= n <= 11 if k <= 7 else n in (2, 3, 4, 8)
    if not a_row:  # TT
        if m == 1:
            return n <= 3 and k <= 9
        return m <= 3 or n <= 11
    # NT: x @ W.t(), each entry a dot of two contiguous rows
    if k <= 7:
        return n <= 3 if m <= 3 else n in (2, 3)
    if k <= 9:
        return (m == 1 and n <= 3) or (m <= 3 and n == 1)
    return False


def _intel_fma_chain(m: int, k: int, n: int, a_row: bool, b_row: bool) -> bool:
    """Shapes and layouts whose MKL kernel on Intel sums each entry as fused multiply-add chains
    in k order, one chain up to 384 terms, longer sums in the blocks of `_intel_k_blocks`
    (measured; `wide`: the result has no more columns than rows or terms)."""
    if k > _INTEL_K_BLOCK:  # of x @ W.t() only 16 rows or more, of TT not 2..7 rows by 192 columns
        if m < 2 or n < 2:  # one row or column: one chain however long, as up to 384 terms
            return _intel_fma_chain(m, _INTEL_K_BLOCK, n, a_row, b_row)
        return b_row or (m >= 8 or n < 192 if not a_row else m >= 16)
    wide = n <= max(m, k - 1)
    if b_row:  # NN, TN
        if m == 1:
            return k <= 7 or n <= 12
        return n >= 2 or (not a_row and (k <= 7 or m <= 12))
    if not a_row:  # TT
        if m == 1:
            return False
        return wide and n < 192 if m <= 7 else n >= 2 or k <= 7 or m <= 12  # (192 columns: measured)
    # NT: x @ W.t()
    if m == 1 or n == 1 or k >= 24 * m and m < 16:  # (16 rows of 384 terms: one chain)
        return False
    if m >= 11:
        return n >= 2 if m >= 16 else n >= 3
    return n >= 4 and (wide or n >= 12)


def fma_chain(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """sum over k of a[..., :, k] * b[..., k, :] as acc = fma(a[:, k], b[k, :], acc) in k order,
    from +0 (or from `init`); leading dimensions are batches."""
    batch = max(a.ndim, b.ndim) - 2
    acc = np.zeros(a.shape[:-1] + b.shape[-1:], a.dtype)
    if init is not None:
        acc += init
    return fma_accumulate(_terms_first(a, -1, batch)[..., None],
                          _terms_first(b, -2, batch)[..., None, :], acc)


def _k_blocks(k: int) -> list[int]:
    """How MKL's AVX2 kernel on AMD splits a sum of k terms: one chain up to 192 terms, two
    halves up to 384 (an odd last term alone after them), else chains of 192 and the rest."""
    if k <= _K_BLOCK:
        return [k]
    if k <= 2 * _K_BLOCK:
        return [k // 2, k // 2] + ([1] if k % 2 else [])
    return [_K_BLOCK] * (k // _K_BLOCK) + ([k % _K_BLOCK] if k % _K_BLOCK else [])


def _intel_k_blocks(k: int, chains_of_384: bool = False) -> list[int]:
    """How MKL's kernel on Intel splits a sum of k terms: chains of 384 while more than 768 terms
    are left, then the rest in two halves (the first one a term longer when odd), or as one
    chain up to 384; `chains_of_384` (a column-major B of 192 columns or more, or one thread's
    part of a sum split between two): chains of 384 throughout once the sum is longer than 768
    (measured: 2..256 rows and columns, 385..2500 terms, the four layouts, with and without
    bias, one and two threads)."""
    if chains_of_384 and k > 2 * _INTEL_K_BLOCK:
        whole, rest = divmod(k, _INTEL_K_BLOCK)
        return [_INTEL_K_BLOCK] * whole + ([rest] if rest else [])
    blocks = []
    while k > 2 * _INTEL_K_BLOCK:
        blocks.append(_INTEL_K_BLOCK)
        k -= _INTEL_K_BLOCK
    return blocks + ([k - k // 2, k // 2] if k > _INTEL_K_BLOCK else [k])


def _intel_blocked(a: np.ndarray, b: np.ndarray, bias, b_row: bool,
                   threaded_work: int = _INTEL_THREADED_WORK) -> np.ndarray:
    """The blocked chains of MKL's kernel on Intel (`_intel_k_blocks`). On two threads, a sum of
    more than 768 terms in a product of more than `threaded_work` multiply-adds (sgemm: 192,000,
    dgemm: 96,000) is split in two halves (the first a term longer when odd), each a thread's
    blocked chains, the first from the bias; the second half's sum is added to it (measured, as
    above)."""
    m, k = a.shape
    n = b.shape[1]
    if THREADS > 1 and k > 2 * _INTEL_K_BLOCK and m * n * k > threaded_work:
        half = k - k // 2
        first = blocked_fma_chain(a[:, :half], b[:half], bias, _intel_k_blocks(half, True))
        second = blocked_fma_chain(a[:, half:], b[half:], None, _intel_k_blocks(k - half, True))
        return first + second
    return blocked_fma_chain(a, b, bias, _intel_k_blocks(k, not b_row and n >= 192))


def _intel_matrix_vector(a: np.ndarray, b: np.ndarray, bias) -> np.ndarray:
    """A one-row or one-column result of MKL's matrix-vector kernel on Intel: one fused chain
    from the bias, however long; on two threads a sum of 256 terms or more is split in halves
    (the first a term longer when odd), each a chain from +0, and the bias added after their
    sum (measured: 1..40 rows or columns, 2..2000 terms, one and two threads)."""
    k = a.shape[1]
    if THREADS > 1 and k >= _INTEL_THREADED_MATRIX_VECTOR:
        first, second = _halves_together(a, b)
        out = first + second
        return out if bias is None else out + bias
    return fma_chain(a, b, bias)


def _intel_column_gemv(columns: np.ndarray, x: np.ndarray, bias) -> np.ndarray:
    """The sum over j of x[j] * columns[j] (columns: k rows of the outputs) as MKL's sgemv takes a
    column-major matrix times a vector on Intel: a one-row result of a row-major B, a one-column
    result of a column-major A (mv of a transposed matrix). One thread: `_column_gemv` from
    addmm's bias. Two threads: from 256 terms on, except for 41..69 outputs below 1000 terms,
    the terms split in halves (the first a term longer when odd), each from +0, the bias added
    after their sum (measured: 2..30,000 terms, 2..300 outputs, with and without bias)."""
    k, count = columns.shape
    if THREADS > 1 and k >= _INTEL_THREADED_MATRIX_VECTOR and not (
            count in _INTEL_UNSPLIT_OUTPUTS and k < _INTEL_UNSPLIT_TERMS):
        out = _column_gemv_halves(columns, x)
        return out if bias is None else out + bias
    return _column_gemv(columns, x, bias)


def _column_gemv_halves(columns: np.ndarray, x: np.ndarray) -> np.ndarray:
    """`_column_gemv` over the first and the second half of the terms (the first a term longer
    when odd), each from +0, added. The last outputs % 16 (each half's plain fused chains) run as
    one batch of two chains, half the steps: the shorter half starts with a zero term, and
    fma(0, 0, +0) leaves its +0 as it is. Whole sixteens take their blocks of eight terms half by
    half, as a leading zero term would shift the blocks."""
    k, count = columns.shape
    half, rest = k - k // 2, k // 2
    whole = count // 16 * 16
    out = np.empty(count, np.float32)
    if whole:
        out[:whole] = _column_gemv(columns[:half, :whole], x[:half], None) + \
            _column_gemv(columns[half:, :whole], x[half:], None)
    if count > whole:
        terms = np.zeros((half, 2, 1), np.float32)
        parts = np.zeros((half, 2, count - whole), np.float32)
        terms[:, 0, 0], parts[:, 0] = x[:half], columns[:half, whole:]
        terms[half - rest:, 1, 0], parts[half - rest:, 1] = x[half:], columns[half:, whole:]
        first, second = fma_accumulate(terms, parts)
        out[whole:] = first + second
    return out


def _column_gemv(columns: np.ndarray, x: np.ndarray, start) -> np.ndarray:
    """The outputs in whole sixteens (one AVX-512 register each) in `_eight_column_blocks`; the
    last outputs % 16 each one fused chain over the terms in order; all from `start` (else
    +0)."""
    count = columns.shape[1]
    whole = count // 16 * 16
    acc = np.zeros(count, np.float32) if start is None else \
        np.broadcast_to(np.asarray(start, np.float32), (count,)).copy()
    if whole:
        acc[:whole] = _eight_column_blocks(columns[:, :whole], x, acc[:whole])
    if count > whole:
        acc[whole:] = fma_accumulate(x[:, None], columns[:, whole:], acc[whole:])
    return acc


def _eight_column_blocks(columns: np.ndarray, x: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """Up to 7 terms: one fused chain from `acc`. Else the terms in blocks of eight, then the
    rest fused into the sum in turn. In a block of terms t0..t7 (t = x[j] * columns[j]), with
    fma(t, u) = t + u rounded once and round(t) the rounded product: the sum so far takes
    fma(t6, .) and then fma(t4, .), is added to fma(t5, round(t7)), and that to
    fma(t0, round(t2)) + fma(t1, round(t3)) (measured with one huge term and its negation among
    ones, then bit for bit on random terms)."""
    k = len(x)
    whole = k // 8 * 8 if k > 7 else 0
    if whole:
        blocks, terms = columns[:whole].reshape(-1, 8, columns.shape[1]), x[:whole].reshape(-1, 8)

        def fused(first: int, rounded: int) -> np.ndarray:  # every block's at once
            product = terms[:, rounded, None] * blocks[:, rounded]
            return fma32(terms[:, first, None], blocks[:, first], product)
        halves, pairs = fused(0, 2) + fused(1, 3), fused(5, 7)
        for block, x_block, half, pair in zip(blocks, terms, halves, pairs):
            acc = half + (pair + fma32(x_block[4], block[4], fma32(x_block[6], block[6], acc)))
    return fma_accumulate(x[whole:, None], columns[whole:], acc)


def _halves_together(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """fma_chain over the first and the second half of k (the first a term longer when odd),
    each from +0, as one batch of two chains (half the steps): the shorter half starts with a
    zero term, and fma(0, 0, +0) leaves its +0 as it is."""
    k = a.shape[1]
    half, rest = k - k // 2, k // 2
    parts_a = np.zeros((2, a.shape[0], half), a.dtype)
    parts_b = np.zeros((2, half, b.shape[1]), b.dtype)
    parts_a[0], parts_b[0] = a[:, :half], b[:half]
    parts_a[1, :, half - rest:], parts_b[1, half - rest:] = a[:, half:], b[half:]
    return fma_chain(parts_a, parts_b)


def blocked_fma_chain(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None,
                      blocks: list[int] | None = None) -> np.ndarray:
    """One fused chain per block of k (`blocks`, by default AMD's `_k_blocks`), the blocks' sums
    added in order to `init` (addmm's bias) or to the first block's; leading dimensions are
    batches."""
    acc = None if init is None else np.broadcast_to(init, a.shape[:-1] + b.shape[-1:]).copy()
    start = 0
    for size in blocks or _k_blocks(a.shape[-1]):
        part = fma_chain(a[..., start:start + size], b[..., start:start + size, :])
        acc = part if acc is None else acc + part
        start += size
    return acc


def blocked_batch(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None
                  ) -> np.ndarray | None:
    """bmm's entries all at once where MKL's batched kernel gives each blocked fused chains: two
    or more entries of `mm`'s blocked shapes, each summed whole (one thread an entry: no rows
    split off as in `mm`; a batch of one is `mm`'s), from baddbmm's `bias` where given; else
    None."""
    count, m, k = a.shape
    n = b.shape[2]
    if not (BLOCKED_KERNEL and a.dtype == b.dtype == np.float32 and count > 1 and m >= 4 and
            n >= 12 and k >= 2 and m * n * k <= _MAX_WORK):
        return None
    return blocked_fma_chain(a, b, None if bias is None else np.asarray(bias, np.float32))


def _chains(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Sixteen lanes (16, m, n) of a @ b: term j (a's column j times b's row j) fused in turn
    into lane j % 16, from `start` (else +0)."""
    if not a.shape[1]:
        return np.zeros((16, a.shape[0], b.shape[1]), np.float32) if start is None else start
    terms = -(-a.shape[1] // 16) * 16  # zero terms after the last leave a lane as it is
    terms_a = np.zeros((terms, a.shape[0]), a.dtype)
    terms_b = np.zeros((terms, b.shape[1]), b.dtype)
    terms_a[:a.shape[1]], terms_b[:b.shape[0]] = a.T, b
    return fma_accumulate(terms_a.reshape(-1, 16, a.shape[0], 1),
                          terms_b.reshape(-1, 16, 1, b.shape[1]), start)


def _paired_chains(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`_chains` with two sets of lanes: in each whole 32 terms the first 16 go to one set and
    the second 16 to the other, the sets are added lane by lane, and the terms left after the
    last whole 32 are fused into that sum."""
    whole = a.shape[1] // 32 * 32
    if not whole:
        return _chains(a, b)
    pair = fma_accumulate(a.T[:whole].reshape(-1, 2, 16, a.shape[0], 1),
                          b[:whole].reshape(-1, 2, 16, 1, b.shape[1]))
    return _chains(a[:, whole:], b[whole:], pair[0] + pair[1])


def _alternate_chains(a: np.ndarray, b: np.ndarray, rows: bool) -> np.ndarray:
    """MKL's dot kernel on Intel over outputs along the rows of a (`rows`) or the columns of
    b: the even outputs in `_paired_chains`, the odd ones in one set (`_chains`), halved."""
    out = np.empty((a.shape[0], b.shape[1]), np.float32)
    if rows:
        out[0::2] = _halve(_paired_chains(a[0::2], b))
        if len(out) > 1:
            out[1::2] = _halve(_chains(a[1::2], b))
    else:
        out[:, 0::2] = _halve(_paired_chains(a, b[:, 0::2]))
        if out.shape[1] > 1:
            out[:, 1::2] = _halve(_chains(a, b[:, 1::2]))
    return out


def _lane_zero(value: np.ndarray) -> np.ndarray:
    lanes = np.zeros((16,) + value.shape, np.float32)
    lanes[0] = value
    return lanes


def sixteen_lanes(a: np.ndarray, b: np.ndarray, first_in_lane: bool = False) -> np.ndarray:
    """MKL's short dot kernel on Intel (one row or one column of outputs): the rounded first
    term set apart, terms 1..K-1 in `_alternate_chains` (outputs counted along a one-column
    result's rows, else along the columns), then the first term added.  `first_in_lane` (its
    four-at-a-time variant): lane 0 starts from the first term, terms 1..16j (whole sixteens)
    are fused into lane (k - 1) % 16 and halved, then the remaining terms go into fresh lanes
    whose lane 0 starts from that sum, halved again."""
    k = a.shape[1]
    first = a[:, :1] * b[:1, :]
    if first_in_lane:
        whole = (k - 1) // 16 * 16 + 1
        head = _halve(_chains(a[:, 1:whole], b[1:whole], _lane_zero(first)))
        return _halve(_chains(a[:, whole:], b[whole:], _lane_zero(head)))
    rows = b.shape[1] == 1 and a.shape[0] > 1
    return _alternate_chains(a[:, 1:], b[1:], rows) + first


def lane_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's dot kernel on Intel for x @ W.t() shapes the fused chain does not take: each row
    a dot of all K terms in `_alternate_chains`, the even rows in two sets of lanes."""
    return _alternate_chains(a, b, True)


def grouped_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's dot kernel on Intel for x @ W.t() of 2..15 rows and at least 24 terms a row: term
    j fused into lane j % 16 from +0, then the four groups of four lanes added in turn
    (((g0 + g1) + g2) + g3) and their four lanes as (l0 + l1) + (l2 + l3)."""
    lanes = _chains(a, b)
    group = ((lanes[0:4] + lanes[4:8]) + lanes[8:12]) + lanes[12:16]
    return (group[0] + group[1]) + (group[2] + group[3])


def _grouped(m: int, k: int, n: int) -> bool:
    """Whether `grouped_dots` holds for x @ W.t() of m rows (k >= 24 m) on Intel: up to 15
    rows, on one thread, or two that leave the product whole (measured: up to 3 rows, or
    m * k * n up to 192,000, bisected on k for 4..15 rows and 2..100 outputs, or k or n a
    multiple of 256; past it MKL takes the blocked chains, `_threads_take_blocked`)."""
    return 2 <= m <= 15 and (THREADS == 1 or m <= 3 or m * k * n <= _INTEL_GROUPED_WORK or
                             k % 256 == 0 or n % 256 == 0)


def _threads_share_outputs(m: int, k: int, n: int) -> bool:
    """Whether two threads share the outputs of x @ W.t() or x @ W (x row-major) on Intel,
    each running chains of 384 over the whole sum from the bias, where `_intel_blocked` would
    split the terms: 769..799 terms, 148 rows or more by 99 outputs or more (measured: 148..1000
    rows by 97..500 outputs at 784 terms, 770..800 terms at 256 by 100, then 40 random shapes
    of each layout with bias). MKL does so for fewer rows too, from more outputs (100 rows from
    300, 140 from 128), and x @ W for longer sums too: unclaimed."""
    return THREADS > 1 and 2 * _INTEL_K_BLOCK < k < 800 and m >= 148 and n >= 99


def _threads_take_blocked(m: int, k: int, n: int) -> bool:
    """Whether two threads give x @ W.t() of 4..15 rows and k >= 24 m terms, past
    `grouped_dots`' 192,000 multiply-adds, to MKL's blocked chains (`_intel_blocked`, the bias
    first). Measured on 700 random shapes up to 3,000 terms and a few to 12,001; not where k or
    n is a multiple of 256 (`grouped_dots` still), nor for 33 or 34 outputs, whose last one or
    two take the dot kernel (unclaimed)."""
    return (THREADS > 1 and 4 <= m <= 15 and m * k * n > _INTEL_GROUPED_WORK and k <= 12001
            and k % 256 != 0 and n % 256 != 0 and n not in (33, 34))


def _intel_dot_split(count: int, k: int) -> int | None:
    """How two threads share `count` dots of k terms on Intel (a one-column result's rows, a
    one-row result's columns): 0 when one thread takes them all, as on one thread; else the
    first thread's share, ceil(count / 2); None where unmeasured. Measured (the least k that
    splits, bisected for 5..5,000 dots, then 700 random shapes, both orientations): they split
    when count * (k + 288) >= 41,700 and count * k is past about 8,250 (8,000..8,400 is left
    unclaimed, as are 2-term dots past 8,000 and sums longer than _INTEL_SPLIT_DOT_K)."""
    if THREADS == 1:
        return 0
    if k > _INTEL_SPLIT_DOT_K:
        return None
    if count * k <= 8000 or count * (k + 288) < 41700:
        return 0
    if count * k >= 8400 and k > 2:
        return (count + 1) // 2
    return 0 if (count + 1) // 2 % 4 == 0 else None  # a split that moves no dot in its four


def _short_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """x @ W.t() with one row or one column on Intel: each thread's share of the dots
    (`_intel_dot_split`) in `_quad_dots`; None where unmeasured (more than _INTEL_SHORT_DOT_K
    terms, or a split not known)."""
    k = a.shape[1]
    n = b.shape[1]
    count = max(a.shape[0], n)
    split = _intel_dot_split(count, k) if k <= _INTEL_SHORT_DOT_K else None
    if split is None:
        return None
    if not split or split % 4 == 0:  # (a share of whole fours sums as one call does)
        return _quad_dots(a, b)
    if n == 1:
        return np.concatenate([_quad_dots(a[:split], b), _quad_dots(a[split:], b)])
    return np.concatenate([_quad_dots(a, b[:, :split]), _quad_dots(a, b[:, split:])], axis=1)


def _quad_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One call's dots (a one-column result's rows, a one-row result's columns): whole fours
    in `sixteen_lanes`' first_in_lane, then the last one to three."""
    n = b.shape[1]
    count = max(a.shape[0], n)
    quads = count - count % 4
    if not quads:
        return sixteen_lanes(a, b)
    rest = (a[quads:], b) if n == 1 else (a, b[:, quads:])
    block = sixteen_lanes(a[:quads], b, True) if n == 1 else sixteen_lanes(a, b[:, :quads], True)
    if quads == count:
        return block
    return np.concatenate([block, sixteen_lanes(*rest)], axis=0 if n == 1 else 1)


def _second_thread_rows(m: int, k: int, n: int) -> int | None:
    """Where MKL on AMD splits a product's rows between two threads, when the second part is
    left with fewer than four rows (which then take the small-M kernels); None when it runs
    whole or both parts keep the blocked chains (measured: it threads past 16 terms, or past 4
    terms with more than 16 columns, and gives the first thread a multiple of four rows)."""
    if not _AMD_AVX512_THREADS or not (k > 16 or (k > 4 and n > 16)):
        return None
    split = 4 * -(-m // 8)
    return split if 0 < m - split < 4 else None


def _bias_first(m: int, n: int, a_row: bool, b_row: bool) -> bool:
    """Whether addmm's bias starts the sums (MKL's first operand not transposed) rather than
    being added to them at the end (a 1x1 result starts from it when B is row-major)."""
    if n == 1:
        return b_row if m == 1 else not a_row
    return b_row


def sequential(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """sum over k of a[..., :, k] * b[..., k, :], one rounding per product and per addition, in
    k order, from +0 (or from `init`); leading dimensions are batches."""
    if a.ndim == b.ndim == 2:  # (the common case, without broadcast_shapes' Python)
        shape = (a.shape[0], b.shape[1])
    else:
        shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]))
    if math.prod(shape) <= _FEW_SUMS:
        return _sequential_at_once(a, b, init, shape)
    acc = np.zeros(shape, a.dtype)
    if init is not None:
        acc += init
    term = np.empty(shape, a.dtype)
    for i in range(a.shape[-1]):
        np.multiply(a[..., :, i:i + 1], b[..., i:i + 1, :], out=term)
        np.add(acc, term, out=acc)
    return acc


_FEW_SUMS = 64  # up to this many sums, all terms at once beat a Python loop over k


def _sequential_at_once(a: np.ndarray, b: np.ndarray, init, shape: tuple) -> np.ndarray:
    """`sequential` for few sums (a matrix-vector product's): every term at once, then added
    in k order, rounding each partial sum."""
    batch = len(shape) - 2
    terms = np.empty((a.shape[-1] + 1,) + shape, a.dtype)
    terms[0] = 0 if init is None else init
    np.multiply(_terms_first(a, -1, batch)[..., None], _terms_first(b, -2, batch)[..., None, :],
                out=terms[1:])
    return in_order(terms)


def _terms_first(x: np.ndarray, axis: int, batch: int) -> np.ndarray:
    """x with the summed axis moved first and singleton axes for the batch dims it lacks."""
    if x.ndim == 2 and not batch:  # (a matrix: without moveaxis' Python)
        return x.T if axis == -1 else x
    moved = np.moveaxis(x, axis, 0)
    return moved.reshape((moved.shape[0],) + (1,) * (batch - (x.ndim - 2)) + moved.shape[1:])


def gemv_rows(a: np.ndarray, v: np.ndarray, lda: int) -> np.ndarray | None:
    """MKL's matrix-vector kernel over contiguous rows of `a` (lda elements apart) and a vector
    `v` (see the module docstring's "matrix-vector rows"; float64 on Zen 5 only), or None where
    unmeasured."""
    m, k = a.shape
    quads = m - m % 4
    double = a.dtype == np.float64
    if not _AMD_ZEN5 and (double or quads < m or lda != k):
        return None
    width = 2 if double else 4  # elements in 16 bytes
    terms = a.T * v[:, None]
    out = np.empty(m, a.dtype)
    if quads:
        out[:quads] = _aligned_lanes(terms[:, :quads], width, (lda - 1) % width + 1)
    tails = (_DOUBLE_GEMV_TAILS if double else _GEMV_TAILS)[m - quads]
    for row, lanes in zip(range(quads, m), tails):
        fold = _double_fold if double and lanes == 8 else _halve
        out[row] = _aligned_lanes(terms[:, row], lanes, width, 8, fold)
    return out


# the lanes of each of the last m % 4 rows in MKL's matrix-vector kernel on Zen 5 (measured)
_GEMV_TAILS = ((), (8,), (8, 4), (8, 4, 8))
_DOUBLE_GEMV_TAILS = ((), (8,), (4, 2), (4, 2, 8))


def _halve(acc: np.ndarray) -> np.ndarray:
    """Lanes folded pairwise by halves: l + l + lanes/2, then + lanes/4, ..."""
    while len(acc) > 1:
        acc = acc[:len(acc) // 2] + acc[len(acc) // 2:]
    return acc[0]


def _aligned_lanes(terms: np.ndarray, lanes: int, peel: int, step: int = 0,
                   fold=_halve) -> np.ndarray:
    """MKL's dot kernels on Zen 5 over rounded products `terms` (k first): the first `peel`
    terms sequentially into lane 0, then `lanes` lanes over the next whole multiple of `step`
    (default `lanes`) terms (lane l += term peel + l mod lanes), folded (`_halve` unless told),
    then the rest sequentially; no lanes at all when fewer than `step` terms follow the peel."""
    k = terms.shape[0]
    peel = min(peel, k)
    step = step or lanes
    main = (k - peel) // step * step
    if not main:
        peel = k
    steps = np.zeros((1 + main // lanes, lanes) + terms.shape[1:], terms.dtype)
    steps[0, 0] = in_order(np.concatenate([steps[0, :1], terms[:peel]]))
    steps[1:] = terms[peel:peel + main].reshape((main // lanes, lanes) + terms.shape[1:])
    out = fold(in_order(steps))
    for term in terms[peel + main:]:
        out = out + term
    return out


def aligned_dots(a: np.ndarray, b: np.ndarray, lda: int, offset: int = 0) -> np.ndarray:
    """x @ W.t() of two or more rows on Zen 5 (see the module docstring): each row peels the
    terms before its first 16-byte boundary (row i starts offset + i * lda floats past an
    aligned base); whole fours of columns sum in four lanes, the last one to three columns in
    eight."""
    m, k = a.shape
    n = b.shape[1]
    quads = n - n % 4
    out = np.empty((m, n), np.float32)
    rows = np.arange(m)
    for peel in range(4):
        mine = rows[(-(offset + rows * lda)) % 4 == peel]
        if not len(mine):
            continue
        terms = a[mine].T[:, :, None] * b[:, None, :]
        if quads:
            out[mine, :quads] = _aligned_lanes(terms[:, :, :quads], 4, peel)
        if quads < n:
            out[mine, quads:] = _aligned_lanes(terms[:, :, quads:], 8, peel)
    return out


def mm(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None, a_strides=None,
       b_strides=None, whole: bool = True, offsets: tuple[int, int] = (0, 0),
       serial: bool = False) -> np.ndarray | None:
    """torch.mm / torch.addmm(bias, a, b) of float32 or float64 matrices bit for bit, or None if
    unknown; `whole` False: the rows a second thread sums, which MKL never hands to its
    matrix-vector kernel. `offsets`: how many floats past a 64-byte boundary A and the result
    start (torch's own tensors start on one; a kernel's scratch buffers need not). `serial`: a
    call from inside torch's own parallel loop, which MKL runs on one thread."""
    if a.dtype != b.dtype or a.dtype not in (np.float32, np.float64):
        return None
    m, k = a.shape
    n = b.shape[1]
    if k == 1 and bias is not None and not _AMD and 0 < m * n <= _MAX_WORK:
        a_row, b_row = layouts(a_strides or _strides(a), b_strides or _strides(b), m, k, n)
        return _rank_one(a, b, bias, a_row, b_row)
    if k < 2 or m * n * k > _MAX_WORK or m == 0 or n == 0:
        return None
    a_strides, b_strides = a_strides or _strides(a), b_strides or _strides(b)
    a_row, b_row = layouts(a_strides, b_strides, m, k, n)
    if _AMD_ZEN5 and n == 1 and m >= 2 and not a_row and (b_row or b_strides[0] == 1):
        return _transposed_gemv(a, b, bias)
    if a.dtype == np.float64:
        if m * n * k > _MAX_DOUBLE_WORK:
            return None
        if not _AMD:
            return _intel_double(a, b, None if bias is None else np.asarray(bias, np.float64),
                                 a_row, b_row)
        if not _AMD_ZEN5:
            return None
        if a_row and not b_row and m >= 2 and n >= 2:
            lda = a_strides[0] if a_strides[1] == 1 and a_strides[0] >= k else k
            return _double_dots(a, b, lda, bias)
        bias64 = None if bias is None else np.asarray(bias, np.float64)
        if m == n == 1 and b_row:  # a dot taking the small-product kernel: from the bias
            return sequential(a, b, bias64)
        if min(m, n) == 1 and not (m == 1 and b_row):
            out = _matrix_vector(a, b, a_strides, b_strides, a_row, b_row)
            return out if out is None or bias64 is None else out + bias64
        if not b_row or n % 12 % 2:
            return None
        return _double_tiles(a, b, bias)
    bias32 = None if bias is None else np.asarray(bias, np.float32)
    if not _AMD:
        if m == 1 and n >= 2 and b_row:  # x @ W of one row, W row-major
            return _intel_column_gemv(b, a[0], None if bias32 is None else
                                      np.broadcast_to(bias32, (1, n))[0])[None, :]
        if n == 1 and m >= 2 and not a_row:  # A.t() @ x, mv of a transposed matrix
            return _intel_column_gemv(a.T, b[:, 0], None if bias32 is None else
                                      np.broadcast_to(bias32, (m, 1))[:, 0])[:, None]
        if a_row and (not b_row or n < m) and min(m, n) == 1:
            out = _short_dots(a, b)
            if out is None:
                return None
            return out if bias32 is None else out + bias32
        if not _intel_fma_chain(m, k, n, a_row, b_row):
            long = k >= _INTEL_LANE_DOT_ROWS * m
            if a_row and not b_row and long and _threads_take_blocked(m, k, n):
                return _intel_blocked(a, b, bias32, b_row)
            if not (a_row and not b_row) or long and not _grouped(m, k, n):
                return None
            out = grouped_dots(a, b) if long else lane_dots(a, b)  # x @ W.t(), 2+ rows and columns
            return out if bias32 is None else out + bias32
        if m == 1 or n == 1:
            return _intel_matrix_vector(a, b, bias32)
        if a_row and _threads_share_outputs(m, k, n):
            return blocked_fma_chain(a, b, bias32, _intel_k_blocks(k, True))
        return _intel_blocked(a, b, bias32, b_row)
    if BLOCKED_KERNEL and m >= 4 and n >= 12:
        split = None if serial else _second_thread_rows(m, k, n)
        if split is None:
            return blocked_fma_chain(a, b, bias32)
        rows = bias is not None and np.ndim(bias) == 2 and len(bias) == m  # the result's shape
        rest = mm(a[split:], b, bias[split:] if rows else bias, a_strides, b_strides,
                  whole=False)
        if rest is None:
            return None
        return np.concatenate([blocked_fma_chain(a[:split], b, bias32[:split] if rows else bias32),
                               rest])
    if _AMD_ZEN5 and a_row and not b_row and (m >= 2 or not whole) and n >= 2:
        lda = a_strides[0] if a_strides[1] == 1 and a_strides[0] >= k else k
        out = aligned_dots(a, b, lda, offsets[0])
        return out if bias32 is None else out + bias32
    if _AMD_ZEN5 and b_row and n >= 2:
        return peeled_columns(a, b, bias32, offsets[1])
    if _sequential(m, k, n, a_row, b_row):
        if bias32 is not None and _bias_first(m, n, a_row, b_row):
            return sequential(a, b, bias32)
        out = sequential(a, b)
        return out if bias32 is None else out + bias32
    out = _matrix_vector(a, b, a_strides, b_strides, a_row, b_row) if whole else None
    if out is None:
        return None
    return out if bias32 is None else out + bias32


def _rank_one(a: np.ndarray, b: np.ndarray, bias, a_row: bool, b_row: bool) -> np.ndarray:
    """addmm over one term on Intel: MKL's matrix-vector kernel (a one-column result of a
    row-major A, a one-row result of a column-major B) adds the bias to the rounded product;
    every other shape is one fused multiply-add from the bias."""
    start = np.broadcast_to(np.asarray(bias, a.dtype), (a.shape[0], b.shape[1]))
    if (b.shape[1] == 1 and a_row) or (a.shape[0] == 1 and not b_row):
        return a * b + start
    return fused(a, b, start)


def _matrix_vector(a, b, a_strides, b_strides, a_row: bool, b_row: bool) -> np.ndarray | None:
    """One-column results of a row-major A (mv, F.linear to one output) and one-row x @ W.t()
    (F.linear of one sample), MKL's matrix-vector kernel over the rows of A or of W (`gemv_rows`).
    A one-column B is the same vector whichever way it is laid out when its elements are
    adjacent (measured: F.linear, x @ w.t(), mv)."""
    m, k = a.shape
    if b.shape[1] == 1 and a_row and (b_row or b_strides[0] == 1):
        lda = a_strides[0] if a_strides[1] == 1 and a_strides[0] >= k else k
        out = gemv_rows(a, b[:, 0], lda)
        return None if out is None else out[:, None]
    if m == 1 and a_row and not b_row:
        out = gemv_rows(b.T, a[0], b_strides[1])
        return None if out is None else out[None, :]
    if m == b.shape[1] == 1 and not a_row and not b_row:  # a dot of two column-major operands
        out = gemv_rows(a, b[:, 0], k)  # (x.t() @ y.t(), a Linear's input gradient of one row)
        return None if out is None else out[:, None]
    return None


def _transposed_gemv(a: np.ndarray, b: np.ndarray, bias) -> np.ndarray:
    """A one-column result of a column-major A (J.T @ r, mv of a transposed matrix) on Zen 5:
    MKL's transposed gemv sums each entry sequentially, without FMA, from addmv's bias
    (measured: float32 and float64, 2..300 rows by 3..3000 terms, one and two threads)."""
    return sequential(a, b, None if bias is None else np.broadcast_to(
        np.asarray(bias, a.dtype), (a.shape[0], 1)))


def _split_eights(a: np.ndarray, b: np.ndarray, init: np.ndarray | None) -> np.ndarray:
    """`sequential`, except that the second four terms of every whole eight are summed apart
    (from +0) and their sum added."""
    whole = a.shape[1] // 8 * 8
    acc = None if init is None else init.copy()
    for start in range(0, whole, 8):
        acc = sequential(a[:, start:start + 4], b[start:start + 4], acc)
        acc = acc + sequential(a[:, start + 4:start + 8], b[start + 4:start + 8])
    return sequential(a[:, whole:], b[whole:], acc)


def peeled_columns(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None,
                   offset: int = 0) -> np.ndarray:
    """B row-major on Zen 5, outside the blocked shapes (see the module docstring): sequential
    sums from the bias, except the first (-(offset + i * n)) % 4 entries of row i (the result
    starting `offset` floats past an aligned base) when four or more follow them
    (`_split_eights`)."""
    m, n = a.shape[0], b.shape[1]
    init = None if bias is None else np.broadcast_to(bias, (m, n))
    out = sequential(a, b, init)
    rows = np.arange(m)
    for peel in range(1, min(4, n - 3)):
        mine = rows[(-(offset + rows * n)) % 4 == peel]
        if len(mine):
            out[mine, :peel] = _split_eights(a[mine], b[:, :peel],
                                             None if init is None else init[mine, :peel])
    return out


def _double_tiles(a: np.ndarray, b: np.ndarray, bias) -> np.ndarray:
    """float64 with B row-major on Zen 5: fused chains over whole 4 x 12 tiles, sequential sums
    elsewhere, every entry starting from the bias (see the module docstring)."""
    m, n = a.shape[0], b.shape[1]
    init = None if bias is None else np.broadcast_to(np.asarray(bias, np.float64), (m, n))
    out = sequential(a, b, init)
    rows, cols = m // 4 * 4, n // 12 * 12
    if rows and cols:
        out[:rows, :cols] = fma_chain(a[:rows], b[:, :cols],
                                      None if init is None else init[:rows, :cols])
    return out


def _double_fold(acc: np.ndarray) -> np.ndarray:
    """dgemm's dot kernel folds two lanes as l0 + l1 and eight as
    ((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 + l7))."""
    if len(acc) == 2:
        return acc[0] + acc[1]
    return ((acc[0] + acc[2]) + (acc[4] + acc[6])) + ((acc[1] + acc[3]) + (acc[5] + acc[7]))


def _double_lanes(a: np.ndarray, b: np.ndarray, peels: np.ndarray) -> np.ndarray:
    """Each row i of a dotted with b's columns: `_aligned_lanes` over two lanes for whole fours
    of columns and eight for the last n % 4, folded by `_double_fold`, row i peeling peels[i]."""
    m, n = a.shape[0], b.shape[1]
    quads = n - n % 4
    out = np.empty((m, n), np.float64)
    for peel in np.unique(peels):
        mine = np.flatnonzero(peels == peel)
        terms = a[mine].T[:, :, None] * b[:, None, :]
        if quads:
            out[mine, :quads] = _aligned_lanes(terms[:, :, :quads], 2, peel, fold=_double_fold)
        if quads < n:
            out[mine, quads:] = _aligned_lanes(terms[:, :, quads:], 8, peel, fold=_double_fold)
    return out


def _double_dots(a: np.ndarray, b: np.ndarray, lda: int, bias) -> np.ndarray | None:
    """float64 x @ W.t() of two or more rows and columns on Zen 5 (see the module docstring):
    fused chains over whole 4 x 12 tiles, `_double_lanes` elsewhere (rows peeling to their
    16-byte boundary, or the rows past the last whole four, 2 - k % 2 terms), bias at the end;
    None where both rows and columns are left past the tiles (not reproduced)."""
    m, k = a.shape
    n = b.shape[1]
    rows, cols = (m // 4 * 4, n // 12 * 12) if m >= 4 and n >= 12 else (m, 0)
    if cols and (k > _DOUBLE_TILE_K or rows < m and cols < n):
        return None
    peels = np.where(np.arange(m) < rows, (-np.arange(m) * lda) % 2, 2 - k % 2)
    init = None if bias is None else np.broadcast_to(np.asarray(bias, np.float64), (m, n))
    out = np.empty((m, n), np.float64)
    if cols:
        out[:rows, :cols] = fma_chain(a[:rows], b[:, :cols],
                                      None if init is None else init[:rows, :cols])
        out[rows:, :cols] = _double_lanes(a[rows:], b[:, :cols], peels[rows:])
    if cols < n:
        out[:, cols:] = _double_lanes(a, b[:, cols:], peels)
    if init is not None:
        out[rows:] += init[rows:]
        out[:rows, cols:] += init[:rows, cols:]
    return out


_INTEL_DOUBLE_THREADED_WORK = 96_000  # multiply-adds past which two threads split dgemm's long sums
_INTEL_DOUBLE_THREADED_THIN = 2_688  # multiply-adds of a one-row or one-column dgemm measured whole
# on two threads past 100 terms (2,880 and 6,600 were split)
_INTEL_DOUBLE_COLUMN_THREADED_WORK = 80_000  # B column-major on two threads: measured whole
_INTEL_DOUBLE_COLUMN_BLOCK = 192  # dgemm's longest chain on Intel with B column-major


def _intel_double_column_blocks(k: int) -> list[int]:
    """How dgemm on Intel splits a sum of k terms when B is column-major (NT, TT): chains of 192
    while more than 384 terms are left, then the rest in two halves (the first a term longer when
    odd), or one chain up to 192."""
    blocks = []
    while k > 2 * _INTEL_DOUBLE_COLUMN_BLOCK:
        blocks.append(_INTEL_DOUBLE_COLUMN_BLOCK)
        k -= _INTEL_DOUBLE_COLUMN_BLOCK
    return blocks + ([k - k // 2, k // 2] if k > _INTEL_DOUBLE_COLUMN_BLOCK else [k])


def _intel_double(a: np.ndarray, b: np.ndarray, bias, a_row: bool, b_row: bool
                  ) -> np.ndarray | None:
    """float64 mm / addmm on Intel (MKL's dgemm, see the module docstring), or None where not
    measured. `bias` is float64 or None."""
    m, k = a.shape
    n = b.shape[1]
    if (m == 1 and b_row) or (n == 1 and not a_row and m > 1):  # the matrix-vector chains
        if THREADS > 1 and k > 100 and (k > 250 or m * n * k > _INTEL_DOUBLE_THREADED_THIN):
            return None
        return fma_chain(a, b, bias)
    if m == 1 and not b_row:  # one-row x @ W.t() (F.linear of one sample, a one-by-one
        # product of a column-major B): dots of W's rows
        out = _intel_double_rows(b.T, a[0], None if bias is None else
                                 np.broadcast_to(bias, (1, n))[0])
        return None if out is None else out[None, :]
    if n == 1 and a_row:  # mv, one column of a row-major A: dots of A's rows
        out = _intel_double_rows(a, b[:, 0], None if bias is None else
                                 np.broadcast_to(bias, (m, 1))[:, 0])
        return None if out is None else out[:, None]
    if m == 1 or n == 1:  # a one-row TT product, not measured
        return None
    if b_row:
        if m == 2 and a_row and (THREADS == 1 or m * n * k <= _INTEL_DOUBLE_THREADED_WORK):
            return fma_chain(a, b, bias)  # two rows by a row-major B: one chain from the bias
        return _intel_blocked(a, b, bias, b_row, _INTEL_DOUBLE_THREADED_WORK)
    if a_row and m < 4:  # x @ W.t() of two or three rows
        out = _eight_lanes_by_fours(a, b.T)
        return out if bias is None else out + bias
    # B column-major: x @ W.t() of four rows and fewer than 16 terms, and TT of few rows and
    # terms, take other kernels; two threads split the larger products' sums otherwise (neither
    # reproduced)
    small = m == 4 and k < 16 if a_row else m < 8 and (k < 40 or n >= k)
    if small or n > 100 or (THREADS > 1 and m * n * k > _INTEL_DOUBLE_COLUMN_THREADED_WORK):
        return None
    return blocked_fma_chain(a, b, bias, _intel_double_column_blocks(k))


def _eight_lanes_by_fours(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x @ w.T as MKL's dgemm sums two or three rows of x on Intel: each entry's term j fused
    into lane j % 8 from +0, the lanes summed ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7))
    (measured: 2..50,001 terms, 2..100 columns, one and two threads)."""
    k = x.shape[1]
    padded = -(-k // 8) * 8  # zero terms after the last leave a lane as it is
    x, w = (np.pad(v, ((0, 0), (0, padded - k))) for v in (x, w))
    lanes = fma_accumulate(x.reshape(len(x), -1, 8).transpose(1, 0, 2)[:, :, None],
                           w.reshape(len(w), -1, 8).transpose(1, 0, 2)[:, None])
    return ((lanes[..., 0] + lanes[..., 4]) + (lanes[..., 1] + lanes[..., 5])) + \
        ((lanes[..., 2] + lanes[..., 6]) + (lanes[..., 3] + lanes[..., 7]))


def _intel_double_rows(rows: np.ndarray, x: np.ndarray, bias) -> np.ndarray | None:
    """The dot of each row with x as MKL's dgemv sums rows on Intel (`_eight_lane_dots`), then
    addmv's (addmm's) `bias` added; on two threads each row's terms split in halves (the first
    a term longer when odd) from 10,000 terms on, the bias added to the first half's dot, then
    the second's (one row splits otherwise there: left unclaimed); unmeasured past 100,003
    terms."""
    count, k = rows.shape
    if k > _INTEL_DOUBLE_ROWS_MEASURED or (
            THREADS > 1 and count == 1 and k >= _INTEL_DOUBLE_ROWS_SPLIT):
        return None
    if THREADS > 1 and k >= _INTEL_DOUBLE_ROWS_SPLIT:
        half = k - k // 2
        first = _eight_lane_dots(rows[:, :half], x[:half])
        if bias is not None:
            first = first + bias
        return first + _eight_lane_dots(rows[:, half:], x[half:])
    out = _eight_lane_dots(rows, x)
    return out if bias is None else out + bias


def _eight_lane_dots(rows: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Eight lanes a row (lane j % 8 takes term j, fused): the whole sixteens of terms in two
    sets of lanes (the first eight of each into one, the second into the other) added lane by
    lane, then a last whole eight and the k % 8 terms left fused into that sum in turn; the
    lanes then summed ((l0 + l2) + (l1 + l3)) + ((l4 + l6) + (l5 + l7)) (measured with one huge
    term and its negation among ones, then bit for bit on 2..100,003 terms, 1..100 rows)."""
    count, k = rows.shape
    sixteens = k // 16
    acc = np.zeros((count, 8))
    if sixteens:
        sets = fma_accumulate(rows[:, :16 * sixteens].reshape(count, sixteens, 2, 8)
                              .transpose(1, 2, 0, 3), x[:16 * sixteens].reshape(sixteens, 2, 1, 8))
        acc = sets[0] + sets[1]
    start = 16 * sixteens
    if k - start >= 8:
        acc = fma64(rows[:, start:start + 8], x[start:start + 8], acc)
        start += 8
    if start < k:
        acc[:, :k - start] = fma64(rows[:, start:], x[start:], acc[:, :k - start])
    return ((acc[:, 0] + acc[:, 2]) + (acc[:, 1] + acc[:, 3])) + \
        ((acc[:, 4] + acc[:, 6]) + (acc[:, 5] + acc[:, 7]))


def mv(a: np.ndarray, v: np.ndarray, a_strides=None) -> np.ndarray | None:
    """torch.mv: MKL's sgemv sums as sgemm does with a one-column B."""
    out = mm(a, v[:, None], a_strides=a_strides, b_strides=(1, v.shape[0]))
    return None if out is None else out[:, 0]


def dot(x: np.ndarray, y: np.ndarray, offsets: tuple[int, int] = (0, 0)) -> np.ndarray | None:
    """torch.dot (MKL sdot/ddot), `offsets`: where x and y start in their storage, in elements.
    float32 on AMD: sequential for two or three terms; for 4, 8 or 16 terms four lanes (lane l
    sums the terms k = l mod 4 in order, without FMA), then (l0 + l2) + (l1 + l3); on Zen 5 any
    length, `_float_dot`, and with an operand whose elements are not adjacent (a matrix's
    column) sequential, on one thread or two up to 5000 terms (measured).  float32 on Intel,
    both operands contiguous: `_intel_threaded_dot` (read from MKL's AVX-512 sdot; measured bit
    for bit on 1..200 terms and up to 100,000 on one thread; two threads split sums from 8192
    terms on); float64 there the same with eight lanes (ddot: 2..50,000 terms on one thread,
    split on two from 4096 on).  float64 on Zen 5: `_double_dot`."""
    k = x.shape[0]
    strided = x.strides[0] != x.itemsize or y.strides[0] != y.itemsize
    if not _AMD and not strided and k >= 2 and x.dtype == y.dtype and \
            x.dtype in (np.float32, np.float64):
        return _intel_threaded_dot(x, y)
    if x.dtype == y.dtype == np.float64:
        exact = _AMD_ZEN5 and k >= 2 and not (offsets[0] % 2 or offsets[1] % 2)
        return _double_dot(x * y) if exact else None
    if (_AMD_ZEN5 and strided and 2 <= k <= _FLOAT_DOT_ONE_THREAD
            and x.dtype == y.dtype == np.float32):
        return sequential(x[None, :], y[:, None])[0, 0]
    if (_AMD_ZEN5 and k >= 4 and x.dtype == y.dtype == np.float32 and offsets == (0, 0)
            and (THREADS == 1 or k <= _FLOAT_DOT_ONE_THREAD)):
        return _float_dot(x * y)
    if x.dtype != np.float32 or y.dtype != np.float32 or k not in (2, 3, 4, 8, 16) or not _AMD:
        return None
    if _AMD and k < 4:
        return sequential(x[None, :], y[:, None])[0, 0]
    if k < 4:
        return sequential(x[None, :], y[:, None])[0, 0]
    lanes = np.zeros(4, np.float32)
    for row in np.pad(x * y, (0, -k % 4)).reshape(-1, 4):
        lanes += row
    return np.float32((lanes[0] + lanes[2]) + (lanes[1] + lanes[3]))


def _intel_threaded_dot(x: np.ndarray, y: np.ndarray):
    """`_intel_dot`, or on two threads, from 8192 floats or 4096 doubles on, the sum of the two
    halves' (the first a term longer when odd) `_intel_dot` (measured up to a million terms)."""
    k = len(x)
    if THREADS > 1 and k > (_INTEL_DOUBLE_DOT_ONE_THREAD if x.dtype == np.float64
                            else _INTEL_FLOAT_DOT_ONE_THREAD):
        half = k - k // 2
        return _intel_dot(x[:half], y[:half]) + _intel_dot(x[half:], y[half:])
    return _intel_dot(x, y)


def _intel_dot(x: np.ndarray, y: np.ndarray):
    """MKL's sdot and ddot on Intel (AVX-512, both operands contiguous): four accumulators of a
    register's lanes (sixteen floats, eight doubles); the four registers of each whole 4 x lanes
    terms fused into accumulators 0..3 in turn; of the rest, two registers into accumulators 0
    and 1, one into accumulator 0, then the last k % lanes terms into accumulator 0's first
    lanes; then (a2 + a3) + (a0 + a1) lane by lane, folded: sdot lane i + lane i + 8, then
    i + (i + 4), then (l0 + l1) + (l2 + l3); ddot i + (i + 4), then (l0 + l2) + (l1 + l3)."""
    double = x.dtype == np.float64
    lanes, fused_add = (8, fma64) if double else (16, fma32)
    k = len(x)
    whole = k // (4 * lanes) * (4 * lanes)
    acc = np.zeros((4, lanes), x.dtype)
    if whole:
        acc = fma_accumulate(x[:whole].reshape(-1, 4, lanes), y[:whole].reshape(-1, 4, lanes))
    start = whole
    for size, target in ((2 * lanes, [0, 1]), (lanes, [0])):
        if k - start >= size:
            part = slice(start, start + size)
            acc[target] = fused_add(x[part].reshape(-1, lanes), y[part].reshape(-1, lanes),
                                    acc[target])
            start += size
    if start < k:
        acc[0, :k - start] = fused_add(x[start:], y[start:], acc[0, :k - start])
    folded = (acc[2] + acc[3]) + (acc[0] + acc[1])
    if not double:
        folded = folded[:8] + folded[8:]
    folded = folded[:4] + folded[4:]
    if double:
        return np.float64((folded[0] + folded[2]) + (folded[1] + folded[3]))
    return np.float32((folded[0] + folded[1]) + (folded[2] + folded[3]))


def _float_dot(terms: np.ndarray) -> np.float32:
    """MKL's sdot on Zen 5 over 4 or more rounded products `terms` (see the module docstring):
    four accumulators of four lanes, whole sixteens of terms into accumulator (term // 4) % 4,
    the one to three fours left alternately into accumulators 0 and 1, the last k % 4 terms in
    turn into lane 0 of accumulator 0; then ((a0 + a1) + a2) + a3 and (l0 + l2) + (l1 + l3)."""
    k = len(terms)
    fours = terms[:k // 4 * 4].reshape(-1, 4)
    blocks = len(fours) // 4 * 4
    rest = fours[blocks:]
    accs = [in_order(np.concatenate([fours[j:blocks:4], rest[j::2] if j < 2 else rest[:0]]))
            for j in range(4)]
    accs[0][0] = in_order(np.concatenate([accs[0][:1], terms[len(fours) * 4:]]))
    lanes = ((accs[0] + accs[1]) + accs[2]) + accs[3]
    return np.float32((lanes[0] + lanes[2]) + (lanes[1] + lanes[3]))


def _double_dot(terms: np.ndarray) -> np.float64:
    """MKL's ddot on Zen 5 over the rounded products `terms` (see the module docstring): eight
    lanes over whole eights, the rest two at a time into lanes 0 and 1 (an odd last one into
    lane 0), then (((l0 + l2) + l4) + l6) + (((l1 + l3) + l5) + l7)."""
    main = len(terms) // 8 * 8
    rest = np.zeros(-(-(len(terms) - main) // 2) * 2)
    rest[:len(terms) - main] = terms[main:]
    tail = np.zeros((len(rest) // 2, 8))
    tail[:, :2] = rest.reshape(-1, 2)
    lanes = in_order(np.concatenate([np.zeros((1, 8)), terms[:main].reshape(-1, 8), tail]))
    return (((lanes[0] + lanes[2]) + lanes[4]) + lanes[6]) + (
        ((lanes[1] + lanes[3]) + lanes[5]) + lanes[7])


def bmm(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray | None:
    """torch.bmm: its naive kernel below 400 multiply-adds per matrix, sequential without FMA
    (float32 and float64 alike); on AMD one-column results of any size too (MKL's batched
    kernel: measured up to 150 rows by 1000 terms, A either way, one and two threads); baddbmm's
    `bias` (beta and alpha 1) is added to the naive kernel's sums and starts MKL's."""
    if a.dtype != b.dtype or a.dtype not in (np.float32, np.float64):
        return None
    count, m, k = a.shape
    n = b.shape[2]
    if k < 2 or m * k * n >= 400 and not (_AMD and n == 1) or count * m * n * k > _MAX_WORK:
        return None
    if bias is None:
        return sequential(a, b)
    if m * k * n < 400:  # the naive kernel: bias * beta + alpha * sum
        return sequential(a, b) + bias
    return sequential(a, b, bias)  # MKL's one-column kernel starts from C
