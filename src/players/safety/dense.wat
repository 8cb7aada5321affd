(module
  (import "env" "memory" (memory 1))
  ;; out[j] = b[j], then + x[i] * W[i][j] for each nonzero x[i] in input order, in float32: the
  ;; product rounded to float32, then the sum (W, b, x, out float32, W input-major [n][o]); relu if
  ;; $relu. Four outputs per SIMD lane group, each lane its own output's sum in the same order.
  (func $dense (export "dense") (param $W i32) (param $b i32) (param $x i32) (param $n i32) (param $o i32)
        (param $out i32) (param $relu i32) (param $scr i32)
    (local $i i32) (local $m i32) (local $v f32) (local $j i32) (local $p i32) (local $end i32)
    (local $w i32) (local $vv v128) (local $ob i32) (local $a f32) (local $ob8 i32) (local $n4 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128)
    ;; gather the nonzero inputs: (value f32, weight row byte offset i32) pairs, 8 bytes apart. Each
    ;; input's pair is written and counted only if nonzero (no branch on the value: the pattern of
    ;; zeros is irregular), and a group of four zeros (a one-hot row is mostly zeros) is skipped.
    (local.set $ob8 (i32.shl (local.get $o) (i32.const 2)))
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (block $gd (loop $g
      (br_if $gd (i32.ge_u (local.get $i) (local.get $n4)))
      (local.set $vv (v128.load (i32.add (local.get $x) (i32.shl (local.get $i) (i32.const 2)))))
      (if (v128.any_true (f32x4.ne (local.get $vv) (v128.const f32x4 0 0 0 0)))
        (then
          (local.set $w (i32.add (local.get $W) (i32.mul (local.get $i) (local.get $ob8))))
          (local.set $p (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
          (local.set $v (f32x4.extract_lane 0 (local.get $vv)))
          (f32.store (local.get $p) (local.get $v))
          (i32.store offset=4 (local.get $p) (local.get $w))
          (local.set $m (i32.add (local.get $m) (f32.ne (local.get $v) (f32.const 0))))
          (local.set $w (i32.add (local.get $w) (local.get $ob8)))
          (local.set $p (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
          (local.set $v (f32x4.extract_lane 1 (local.get $vv)))
          (f32.store (local.get $p) (local.get $v))
          (i32.store offset=4 (local.get $p) (local.get $w))
          (local.set $m (i32.add (local.get $m) (f32.ne (local.get $v) (f32.const 0))))
          (local.set $w (i32.add (local.get $w) (local.get $ob8)))
          (local.set $p (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
          (local.set $v (f32x4.extract_lane 2 (local.get $vv)))
          (f32.store (local.get $p) (local.get $v))
          (i32.store offset=4 (local.get $p) (local.get $w))
          (local.set $m (i32.add (local.get $m) (f32.ne (local.get $v) (f32.const 0))))
          (local.set $w (i32.add (local.get $w) (local.get $ob8)))
          (local.set $p (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
          (local.set $v (f32x4.extract_lane 3 (local.get $vv)))
          (f32.store (local.get $p) (local.get $v))
          (i32.store offset=4 (local.get $p) (local.get $w))
          (local.set $m (i32.add (local.get $m) (f32.ne (local.get $v) (f32.const 0))))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $g)))
    (block $gd1 (loop $g1
      (br_if $gd1 (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $v (f32.load (i32.add (local.get $x) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $p (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
      (f32.store (local.get $p) (local.get $v))
      (i32.store offset=4 (local.get $p) (i32.add (local.get $W) (i32.mul (local.get $i) (local.get $ob8))))
      (local.set $m (i32.add (local.get $m) (f32.ne (local.get $v) (f32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $g1)))
    (local.set $end (i32.add (local.get $scr) (i32.shl (local.get $m) (i32.const 3))))
    ;; blocks of 32 outputs: eight f32x4 accumulators
    (local.set $ob (i32.and (local.get $o) (i32.const -32)))
    (block $bd (loop $bl
      (br_if $bd (i32.ge_u (local.get $j) (local.get $ob)))
      (local.set $p (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))
      (local.set $a0 (v128.load offset=0 (local.get $p)))
      (local.set $a1 (v128.load offset=16 (local.get $p)))
      (local.set $a2 (v128.load offset=32 (local.get $p)))
      (local.set $a3 (v128.load offset=48 (local.get $p)))
      (local.set $a4 (v128.load offset=64 (local.get $p)))
      (local.set $a5 (v128.load offset=80 (local.get $p)))
      (local.set $a6 (v128.load offset=96 (local.get $p)))
      (local.set $a7 (v128.load offset=112 (local.get $p)))
      (local.set $p (local.get $scr))
      (block $kd (loop $kl
        (br_if $kd (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $vv (f32x4.splat (f32.load (local.get $p))))
        (local.set $w (i32.add (i32.load offset=4 (local.get $p)) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $vv) (v128.load offset=0 (local.get $w)))))
        (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $vv) (v128.load offset=16 (local.get $w)))))
        (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $vv) (v128.load offset=32 (local.get $w)))))
        (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $vv) (v128.load offset=48 (local.get $w)))))
        (local.set $a4 (f32x4.add (local.get $a4) (f32x4.mul (local.get $vv) (v128.load offset=64 (local.get $w)))))
        (local.set $a5 (f32x4.add (local.get $a5) (f32x4.mul (local.get $vv) (v128.load offset=80 (local.get $w)))))
        (local.set $a6 (f32x4.add (local.get $a6) (f32x4.mul (local.get $vv) (v128.load offset=96 (local.get $w)))))
        (local.set $a7 (f32x4.add (local.get $a7) (f32x4.mul (local.get $vv) (v128.load offset=112 (local.get $w)))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $kl)))
      (local.set $p (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 2))))
      ;; ReLU when asked (pmax: x < 0 becomes 0; -0 and NaN stay)
      (if (local.get $relu) (then
        (local.set $a0 (f32x4.pmax (local.get $a0) (v128.const f32x4 0 0 0 0)))
        (local.set $a1 (f32x4.pmax (local.get $a1) (v128.const f32x4 0 0 0 0)))
        (local.set $a2 (f32x4.pmax (local.get $a2) (v128.const f32x4 0 0 0 0)))
        (local.set $a3 (f32x4.pmax (local.get $a3) (v128.const f32x4 0 0 0 0)))
        (local.set $a4 (f32x4.pmax (local.get $a4) (v128.const f32x4 0 0 0 0)))
        (local.set $a5 (f32x4.pmax (local.get $a5) (v128.const f32x4 0 0 0 0)))
        (local.set $a6 (f32x4.pmax (local.get $a6) (v128.const f32x4 0 0 0 0)))
        (local.set $a7 (f32x4.pmax (local.get $a7) (v128.const f32x4 0 0 0 0)))))
      (v128.store offset=0 (local.get $p) (local.get $a0))
      (v128.store offset=16 (local.get $p) (local.get $a1))
      (v128.store offset=32 (local.get $p) (local.get $a2))
      (v128.store offset=48 (local.get $p) (local.get $a3))
      (v128.store offset=64 (local.get $p) (local.get $a4))
      (v128.store offset=80 (local.get $p) (local.get $a5))
      (v128.store offset=96 (local.get $p) (local.get $a6))
      (v128.store offset=112 (local.get $p) (local.get $a7))
      (local.set $j (i32.add (local.get $j) (i32.const 32)))
      (br $bl)))
    ;; blocks of 4 outputs
    (local.set $ob (i32.and (local.get $o) (i32.const -4)))
    (block $qd (loop $ql
      (br_if $qd (i32.ge_u (local.get $j) (local.get $ob)))
      (local.set $a0 (v128.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2)))))
      (local.set $p (local.get $scr))
      (block $kd (loop $kl
        (br_if $kd (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (f32x4.splat (f32.load (local.get $p)))
          (v128.load (i32.add (i32.load offset=4 (local.get $p)) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $kl)))
      (if (local.get $relu) (then
        (local.set $a0 (f32x4.pmax (local.get $a0) (v128.const f32x4 0 0 0 0)))))
      (v128.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 2))) (local.get $a0))
      (local.set $j (i32.add (local.get $j) (i32.const 4)))
      (br $ql)))
    ;; the outputs left over, one at a time
    (block $td (loop $tl
      (br_if $td (i32.ge_u (local.get $j) (local.get $o)))
      (local.set $a (f32.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2)))))
      (local.set $w (i32.shl (local.get $j) (i32.const 2)))
      (local.set $p (local.get $scr))
      (block $sd (loop $sl
        (br_if $sd (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a (f32.add (local.get $a)
          (f32.mul (f32.load (local.get $p)) (f32.load (i32.add (i32.load offset=4 (local.get $p)) (local.get $w))))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $sl)))
      (if (i32.and (local.get $relu) (f32.lt (local.get $a) (f32.const 0))) (then (local.set $a (f32.const 0))))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 2))) (local.get $a))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $tl))))
  ;; Layers one after another: each record of the table at $tab is six i32 (W, b, x, n, o, out),
  ;; a layer's x being the previous layer's out; ReLU after every layer, the last only if $reluLast.
  (func $chain (export "chain") (param $tab i32) (param $depth i32) (param $reluLast i32) (param $scr i32)
    (local $d i32) (local $r i32)
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $d) (local.get $depth)))
      (local.set $r (i32.add (local.get $tab) (i32.mul (local.get $d) (i32.const 24))))
      (call $dense
        (i32.load offset=0 (local.get $r)) (i32.load offset=4 (local.get $r))
        (i32.load offset=8 (local.get $r)) (i32.load offset=12 (local.get $r))
        (i32.load offset=16 (local.get $r)) (i32.load offset=20 (local.get $r))
        (select (i32.const 1) (local.get $reluLast)
          (i32.lt_u (i32.add (local.get $d) (i32.const 1)) (local.get $depth)))
        (local.get $scr))
      (local.set $d (i32.add (local.get $d) (i32.const 1)))
      (br $next))))
  ;; ---- A whole candidate row: the column and card networks through their tables, pooled, then the head.
  ;; A table ("memo") is described by fourteen i32 at $m: 0 keys, 4 outs, 8 tags, 12 mask, 16 width
  ;; (input floats), 20 outW, 24 chain record, 28 depth, 32 chain input, 36 last layer's out, 40 hits,
  ;; 44 misses, 48 shares, 52 rows pooled. A slot holds one input row (its bits), its output, its
  ;; tag (hash | 1; 0: empty), and its share of the mean: each output over the rows pooled, in
  ;; float64 (the quotient $pool adds, divided once when the slot is filled rather than at every use).

  ;; A hash of n i32 at $p (any hash will do: a hit is checked word by word).
  ;; Two accumulators, eight words a round: each round's multiplications do not wait on each other.
  (func $hash (param $p i32) (param $n i32) (result i32)
    (local $acc v128) (local $acc2 v128) (local $i i32) (local $h i32) (local $q i32)
    (local.set $acc (i32x4.splat (i32.const 0x811c9dc5)))
    (local.set $acc2 (i32x4.splat (i32.const 0x050c5d1f)))
    (block $d8 (loop $l8
      (br_if $d8 (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
      (local.set $q (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $acc (i32x4.mul (v128.xor (local.get $acc) (v128.load (local.get $q)))
        (i32x4.splat (i32.const 0x01000193))))
      (local.set $acc2 (i32x4.mul (v128.xor (local.get $acc2) (v128.load offset=16 (local.get $q)))
        (i32x4.splat (i32.const 0x01000193))))
      (local.set $i (i32.add (local.get $i) (i32.const 8)))
      (br $l8)))
    (local.set $acc (i32x4.add (local.get $acc) (i32x4.mul (local.get $acc2) (i32x4.splat (i32.const 0x2c1b3c6d)))))
    (block $d (loop $l
      (br_if $d (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
      (local.set $acc (i32x4.mul (v128.xor (local.get $acc)
        (v128.load (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2)))))
        (i32x4.splat (i32.const 0x01000193))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $l)))
    (local.set $h (i32x4.extract_lane 0 (local.get $acc)))
    (local.set $h (i32.xor (i32.mul (local.get $h) (i32.const 0x01000193)) (i32x4.extract_lane 1 (local.get $acc))))
    (local.set $h (i32.xor (i32.mul (local.get $h) (i32.const 0x01000193)) (i32x4.extract_lane 2 (local.get $acc))))
    (local.set $h (i32.xor (i32.mul (local.get $h) (i32.const 0x01000193)) (i32x4.extract_lane 3 (local.get $acc))))
    (block $d2 (loop $l2
      (br_if $d2 (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $h (i32.mul (i32.xor (local.get $h)
        (i32.load (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))) (i32.const 0x01000193)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l2)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x2c1b3c6d)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 12))))

  ;; Where the output of the row at $row lies (computed through the chain and kept, if not there).
  (func $lookup (param $m i32) (param $row i32) (param $scr i32) (result i32)
    (local $n i32) (local $h i32) (local $slot i32) (local $tag i32) (local $key i32) (local $i i32)
    (local $same i32) (local $out i32) (local $ob i32) (local $q i32) (local $c v128) (local $diff v128)
    (local.set $n (i32.load offset=16 (local.get $m)))
    (local.set $h (call $hash (local.get $row) (local.get $n)))
    (local.set $slot (i32.and (local.get $h) (i32.load offset=12 (local.get $m))))
    (local.set $tag (i32.or (local.get $h) (i32.const 1)))
    (local.set $key (i32.add (i32.load offset=0 (local.get $m)) (i32.mul (local.get $slot) (i32.shl (local.get $n) (i32.const 2)))))
    (local.set $ob (i32.shl (i32.load offset=20 (local.get $m)) (i32.const 2)))
    (local.set $out (i32.add (i32.load offset=4 (local.get $m)) (i32.mul (local.get $slot) (local.get $ob))))
    (if (i32.eq (i32.load (i32.add (i32.load offset=8 (local.get $m)) (i32.shl (local.get $slot) (i32.const 2)))) (local.get $tag))
      (then
        ;; the bits that differ, gathered over the whole row (a tag match is nearly always a hit,
        ;; so one test at the end costs less than a test every four words)
        (block $d (loop $l
          (br_if $d (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
          (local.set $diff (v128.or (local.get $diff) (v128.xor
            (v128.load (i32.add (local.get $key) (i32.shl (local.get $i) (i32.const 2))))
            (v128.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 2)))))))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $l)))
        (local.set $same (i32.eqz (v128.any_true (local.get $diff))))
        (block $d2 (loop $l2
          (br_if $d2 (i32.or (i32.eqz (local.get $same)) (i32.ge_u (local.get $i) (local.get $n))))
          (if (i32.ne (i32.load (i32.add (local.get $key) (i32.shl (local.get $i) (i32.const 2))))
                      (i32.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 2)))))
            (then (local.set $same (i32.const 0))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $l2)))
        (if (local.get $same)
          (then
            (i32.store offset=40 (local.get $m) (i32.add (i32.load offset=40 (local.get $m)) (i32.const 1)))
            (return (local.get $out))))))
    (i32.store offset=44 (local.get $m) (i32.add (i32.load offset=44 (local.get $m)) (i32.const 1)))
    (memory.copy (local.get $key) (local.get $row) (i32.shl (local.get $n) (i32.const 2)))
    (memory.copy (i32.load offset=32 (local.get $m)) (local.get $row) (i32.shl (local.get $n) (i32.const 2)))
    (call $chain (i32.load offset=24 (local.get $m)) (i32.load offset=28 (local.get $m)) (i32.const 1) (local.get $scr))
    (memory.copy (local.get $out) (i32.load offset=36 (local.get $m)) (local.get $ob))
    ;; the slot's shares of the mean: out[j] / rows, two at a time
    (local.set $c (f64x2.splat (f64.convert_i32_u (i32.load offset=52 (local.get $m)))))
    (local.set $q (i32.add (i32.load offset=48 (local.get $m)) (i32.shl (i32.sub (local.get $out) (i32.load offset=4 (local.get $m))) (i32.const 1))))
    (local.set $i (i32.const 0))
    (block $qd (loop $ql
      (br_if $qd (i32.ge_u (local.get $i) (local.get $ob)))
      (v128.store (i32.add (local.get $q) (i32.shl (local.get $i) (i32.const 1)))
        (f64x2.div (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $out) (local.get $i)))) (local.get $c)))
      (local.set $i (i32.add (local.get $i) (i32.const 8)))
      (br $ql)))
    (i32.store (i32.add (i32.load offset=8 (local.get $m)) (i32.shl (local.get $slot) (i32.const 2))) (local.get $tag))
    (local.get $out))

  ;; Pools the outputs of $count rows ($stride bytes apart from $row) into $p: the mean (each
  ;; output's share, output / $count in float64, added in float64, rounded to float32 after each
  ;; row), then the max. $count is the table's rows pooled (offset 52), whose shares it keeps.
  (func $pool (param $m i32) (param $row i32) (param $stride i32) (param $count i32) (param $p i32) (param $scr i32)
    (local $H4 i32) (local $j i32) (local $k i32) (local $e i32) (local $q i32) (local $s i32) (local $t i32)
    (local.set $H4 (i32.shl (i32.load offset=20 (local.get $m)) (i32.const 2)))
    (block $d (loop $l
      (br_if $d (i32.ge_u (local.get $j) (local.get $H4)))
      (v128.store (i32.add (local.get $p) (local.get $j)) (v128.const i32x4 0 0 0 0))
      (v128.store (i32.add (i32.add (local.get $p) (local.get $H4)) (local.get $j)) (f32x4.splat (f32.const -inf)))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br $l)))
    (block $kd (loop $kl
      (br_if $kd (i32.ge_u (local.get $k) (local.get $count)))
      (local.set $e (call $lookup (local.get $m) (i32.add (local.get $row) (i32.mul (local.get $k) (local.get $stride))) (local.get $scr)))
      (local.set $s (i32.add (i32.load offset=48 (local.get $m)) (i32.shl (i32.sub (local.get $e) (i32.load offset=4 (local.get $m))) (i32.const 1))))
      (local.set $j (i32.const 0))
      (block $jd (loop $jl
        (br_if $jd (i32.ge_u (local.get $j) (local.get $H4)))
        (local.set $q (i32.add (local.get $p) (local.get $j)))
        (local.set $t (i32.add (local.get $s) (i32.shl (local.get $j) (i32.const 1))))
        (v128.store64_lane 0 (local.get $q) (f32x4.demote_f64x2_zero (f64x2.add
          (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $q)))
          (v128.load (local.get $t)))))
        (v128.store64_lane offset=8 0 (local.get $q) (f32x4.demote_f64x2_zero (f64x2.add
          (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q)))
          (v128.load offset=16 (local.get $t)))))
        (local.set $q (i32.add (local.get $q) (local.get $H4)))
        (v128.store (local.get $q) (f32x4.pmax (v128.load (local.get $q)) (v128.load (i32.add (local.get $e) (local.get $j)))))
        (local.set $j (i32.add (local.get $j) (i32.const 16)))
        (br $jl)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $kl))))

  ;; One candidate's logit. The row description at $r (i32): 0 column memo, 4 card memo (0: none),
  ;; 8 columns, 12 column row bytes, 16 card row bytes, 20 columns' input, 24 flippers' input,
  ;; 28 globals' input, 32 flipper floats, 36 globals floats before the cards, 40 head input,
  ;; 44 head chain record, 48 head depth, 52 head output, 56 scratch, 60 the chains' input, 64 head
  ;; input floats (the head input is pooled apart, then copied: card lookups use the chains' input);
  ;; for rows: 68, 72, 76 the first row's columns, flippers, globals, 80 the logits, 84 globals bytes.
  (func $row (param $r i32) (result f32)
    (local $at i32) (local $scr i32)
    (local.set $scr (i32.load offset=56 (local.get $r)))
    (call $pool (i32.load offset=0 (local.get $r)) (i32.load offset=20 (local.get $r)) (i32.load offset=12 (local.get $r))
      (i32.load offset=8 (local.get $r)) (i32.load offset=40 (local.get $r)) (local.get $scr))
    (local.set $at (i32.add (i32.load offset=40 (local.get $r)) (i32.shl (i32.load offset=20 (i32.load offset=0 (local.get $r))) (i32.const 3))))
    (memory.copy (local.get $at) (i32.load offset=24 (local.get $r)) (i32.shl (i32.load offset=32 (local.get $r)) (i32.const 2)))
    (local.set $at (i32.add (local.get $at) (i32.shl (i32.load offset=32 (local.get $r)) (i32.const 2))))
    (memory.copy (local.get $at) (i32.load offset=28 (local.get $r)) (i32.shl (i32.load offset=36 (local.get $r)) (i32.const 2)))
    (local.set $at (i32.add (local.get $at) (i32.shl (i32.load offset=36 (local.get $r)) (i32.const 2))))
    (if (i32.load offset=4 (local.get $r))
      (then (call $pool (i32.load offset=4 (local.get $r))
        (i32.add (i32.load offset=28 (local.get $r)) (i32.shl (i32.load offset=36 (local.get $r)) (i32.const 2)))
        (i32.load offset=16 (local.get $r)) (i32.const 52) (local.get $at) (local.get $scr))))
    (memory.copy (i32.load offset=60 (local.get $r)) (i32.load offset=40 (local.get $r))
      (i32.shl (i32.load offset=64 (local.get $r)) (i32.const 2)))
    (call $chain (i32.load offset=44 (local.get $r)) (i32.load offset=48 (local.get $r)) (i32.const 0) (local.get $scr))
    (f32.load (i32.load offset=52 (local.get $r))))
  ;; Rows 0 … $k−1 (their inputs one after another from the first row's) into the logits.
  (func (export "rows") (param $r i32) (param $k i32)
    (local $i i32)
    (block $d (loop $l
      (br_if $d (i32.ge_u (local.get $i) (local.get $k)))
      (i32.store offset=20 (local.get $r) (i32.add (i32.load offset=68 (local.get $r))
        (i32.mul (local.get $i) (i32.mul (i32.load offset=8 (local.get $r)) (i32.load offset=12 (local.get $r))))))
      (i32.store offset=24 (local.get $r) (i32.add (i32.load offset=72 (local.get $r))
        (i32.mul (local.get $i) (i32.shl (i32.load offset=32 (local.get $r)) (i32.const 2)))))
      (i32.store offset=28 (local.get $r) (i32.add (i32.load offset=76 (local.get $r))
        (i32.mul (local.get $i) (i32.load offset=84 (local.get $r)))))
      (f32.store (i32.add (i32.load offset=80 (local.get $r)) (i32.shl (local.get $i) (i32.const 2)))
        (call $row (local.get $r)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l))))
)
