#!/usr/bin/env python3
"""Small tinygrad workloads, run by tinygrad itself to leave the files its users have.

    TINYGRAD=<checkout> python3 workloads.py NAME OUT_DIR

runs workload NAME on tinygrad's CPU device with VIZ=-1 (set here) and moves the rewrite trace
and the profile it saves into OUT_DIR/rewrites.pkl and OUT_DIR/profile.pkl. `workloads.py --list`
prints the names. Each workload reads its result back (`tolist`), so every kernel really runs.

They cover what a kernel can hold beyond the corpus in ../shared/data/tinygrad-viz: integer math
on weak constants, negative division, bit operations on narrow ints, half/bfloat16/float64, NaN
and inf, random numbers (threefry), gathers and one-hots, pooling and transposed convolution,
shapes that do not divide, a training step with Adam, symbolic shapes (tinygrad `Variable`s: a
variable in a reduce's and in an elementwise kernel's range, in a store's offset, in a pad, two
in one kernel, one under TinyJit).
"""

import os
import shutil
import sys
import tempfile


def workloads():
    from tinygrad import Tensor, TinyJit, Variable, dtypes, nn

    def mnist_step():
        l1, l2 = nn.Linear(16, 8), nn.Linear(8, 4)
        opt = nn.optim.Adam([l1.weight, l1.bias, l2.weight, l2.bias])
        Tensor.training = True
        x, y = Tensor.rand(4, 16), Tensor([0, 1, 2, 3])
        opt.zero_grad()
        loss = l2(l1(x).relu()).sparse_categorical_crossentropy(y)
        loss.backward()
        opt.step()
        return loss

    def attention():
        q, k, v = (Tensor.rand(1, 2, 16, 8) for _ in range(3))
        return q.scaled_dot_product_attention(k, v, is_causal=True)

    def transformer():
        x = Tensor.rand(1, 8, 16)
        q, k, v = (x @ Tensor.rand(16, 16) for _ in range(3))
        att = (q @ k.transpose(-1, -2) / 4).softmax(-1) @ v
        return (att + x).layernorm().gelu().sum()

    def batchnorm_conv():
        conv, bn = nn.Conv2d(3, 4, 3), nn.BatchNorm(4)
        return bn(conv(Tensor.rand(2, 3, 8, 8))).relu().avg_pool2d().sum()

    def cat_gather():
        c = Tensor.rand(4, 5).cat(Tensor.rand(4, 3), dim=1)
        return c.gather(1, Tensor([[0, 7, 2], [1, 1, 6], [3, 0, 0], [7, 7, 7]])).sum()

    def dropout_randint():
        Tensor.training = True
        return Tensor.ones(64).dropout(0.5).sum() + Tensor.randint(32, low=0, high=10).sum()

    def ints(n, dt):
        return Tensor.arange(n, dtype=dt)

    # Symbolic shapes. A symbolic shape does not read back (tolist), so each sums or pads first.
    def var(name, lo, hi, value):
        return Variable(name, lo, hi).bind(value)

    def var_kv_cache():
        # a KV-cache write: one row at a variable position
        cache, pos = Tensor.zeros(8, 4).contiguous().realize(), var('pos', 0, 7, 3)
        cache.shrink(((pos, pos + 1), None)).assign(Tensor.rand(1, 4)).realize()
        return cache.sum(1)

    def var_jit():
        # the common way users meet variables: a jitted function called with different lengths
        w = Tensor.rand(16, 8).realize()
        f = TinyJit(lambda x, n: (x[:n] @ w).sum())
        out = None
        for n in (3, 5, 7):
            out = f(Tensor.rand(16, 16).realize(), var('n', 1, 16, n))
        return out

    return {
        'layernorm': lambda: Tensor.rand(16, 64).layernorm(),
        'conv2d': lambda: Tensor.rand(1, 3, 16, 16).conv2d(Tensor.rand(8, 3, 3, 3), padding=1).relu(),
        'gelu_mm': lambda: (Tensor.rand(32, 48) @ Tensor.rand(48, 40)).gelu(),
        'argmax': lambda: Tensor.rand(8, 100).argmax(axis=1),
        'cumsum': lambda: Tensor.rand(200).cumsum(),
        'cumsum_big': lambda: Tensor.rand(1000).cumsum(),
        'maxpool': lambda: Tensor.rand(1, 4, 16, 16).max_pool2d(),
        'pool_stride': lambda: (Tensor.rand(1, 2, 9, 9).max_pool2d(kernel_size=3, stride=2) +
                                Tensor.rand(1, 2, 9, 9).avg_pool2d(kernel_size=3, stride=2)).sum(),
        'attention': attention,
        'transformer': transformer,
        'mnist_step': mnist_step,
        'batchnorm_conv': batchnorm_conv,
        'conv_transpose': lambda: Tensor.rand(1, 2, 5, 5).conv_transpose2d(Tensor.rand(2, 3, 3, 3), stride=2).sum(),
        'transpose_pad': lambda: Tensor.rand(8, 12).permute(1, 0).pad(((1, 1), (2, 0))).shrink(((0, 10), (1, 9))),
        'var_mean': lambda: Tensor.rand(32, 32).var(axis=0).sum() + Tensor.rand(32, 32).mean(),
        'logsumexp_std': lambda: Tensor.rand(8, 40).logsumexp(axis=1) + Tensor.rand(8, 40).std(axis=1),
        'cross_entropy': lambda: Tensor.rand(8, 10).sparse_categorical_crossentropy(Tensor([1, 2, 3, 4, 5, 6, 7, 0])),
        'einsum_middle': lambda: Tensor.rand(3, 4, 5, 6).sum(axis=(1, 3), keepdim=True).sum() +
                                 Tensor.einsum("ij,jk->ik", Tensor.rand(4, 3), Tensor.rand(3, 5)).sum(),
        'interp_tril': lambda: Tensor.rand(1, 1, 4, 4).interpolate((8, 8), mode="linear").sum() + Tensor.ones(6, 6).tril().sum(),
        'odd_matmul': lambda: (Tensor.rand(17, 33) @ Tensor.rand(33, 9)).sum(),
        'big_matmul': lambda: (Tensor.rand(128, 128) @ Tensor.rand(128, 128)).relu().sum(),
        'argmin_onehot': lambda: Tensor.rand(6, 9).argmin(axis=1).one_hot(9).sum(0),
        'embedding': lambda: nn.Embedding(20, 8)(Tensor([[1, 5, 19], [0, 2, 3]])).sum(),
        'topk_sort': lambda: Tensor.rand(32).sort()[0],
        'randn': lambda: Tensor.randn(64).sum(),
        'dropout_randint': dropout_randint,
        'where_cmp': lambda: (lambda a, b: (a < b).where(a.sin(), b.sqrt()))(Tensor.rand(128), Tensor.rand(128)),
        'transcend': lambda: (lambda a: (a.log() + a.exp() + a.sin() + a.sqrt() + a.reciprocal() + a.tanh()).sum())(Tensor.rand(256) + 0.1),
        'abs_sign_clamp': lambda: (lambda a: (a.abs() + a.sign() + a.clamp(-0.5, 0.5) + a.minimum(0.3) + a.pow(2) +
                                              (a + 3).pow(0.7)).sum())(Tensor.rand(100) * 4 - 2),
        'nan_inf': lambda: (lambda a: a.isnan().cast(dtypes.int32) + a.isinf().cast(dtypes.int32) + (a * 0).isnan().cast(dtypes.int32))(
            Tensor([1.0, float('nan'), float('inf'), -float('inf'), 0.0, -0.0])),
        'int_ops': lambda: (lambda a: (a * 7 + 3) % 11 // 2 - (a >> 1) ^ 5)(ints(100, dtypes.int32)),
        'negdiv': lambda: (lambda a: (a // 3) + (a % 7) + (a // -4) + (a % -5))(Tensor.arange(-20, 20, dtype=dtypes.int32)),
        'bool_int8': lambda: (lambda a: ((a % 3 == 0) | (a % 5 == 0)).cast(dtypes.int8).sum())(Tensor.arange(64)),
        'uint8_bits': lambda: (lambda a: (((a << 1) ^ (a >> 2)) & 0x7f | 3).cast(dtypes.int32).sum())(Tensor.arange(200).cast(dtypes.uint8)),
        'uint8_norm': lambda: ((ints(192, dtypes.int32).reshape(3, 8, 8).cast(dtypes.uint8).float() / 255.0 - 0.5) / 0.25).mean(),
        'int64_bits': lambda: (lambda a: ((a << 3) | (a & 7)).sum())(ints(50, dtypes.int64)),
        'dtypes_mix': lambda: (ints(40, dtypes.int16).cast(dtypes.float64) * 1.5 + ints(40, dtypes.uint32).cast(dtypes.float64)).sum(),
        'half': lambda: (Tensor.rand(64).cast(dtypes.half) * 2 + 1).exp2().float(),
        'half_mm': lambda: (Tensor.rand(16, 32).half() @ Tensor.rand(32, 8).half()).float().sum(),
        'bf16': lambda: (Tensor.rand(64).cast(dtypes.bfloat16) * 3).float().sum(),
        'float64': lambda: (lambda a: (a.sqrt() * a.exp2() + a.log2()).sum())(ints(50, dtypes.float64) / 7),
        'float64_sin': lambda: (lambda a: (a.sin() + a.log2()).sum())(ints(50, dtypes.float64) / 3),
        'int_reduce': lambda: ints(100, dtypes.int32).reshape(10, 10).sum(1) +
                              ints(100, dtypes.int8).reshape(10, 10).max(1).cast(dtypes.int32),
        'int_where_cmp': lambda: (lambda a: (a > 50).where(a * 2, a - 100).cast(dtypes.float32).sum())(ints(100, dtypes.int32)),
        'idiv_large': lambda: (ints(1000, dtypes.int32) * 3000000 // 7).sum(),
        'uint_ops': lambda: (((ints(64, dtypes.uint32) * 2654435761) >> 7) % 1000).cast(dtypes.int64).sum(),
        'any_all': lambda: (Tensor.rand(8, 8) > 0.5).any(1).cast(dtypes.int32) + (Tensor.rand(8, 8) > 0.1).all(1).cast(dtypes.int32),
        'conv_groups_dil': lambda: Tensor.rand(1, 4, 10, 10).conv2d(Tensor.rand(4, 2, 3, 3), groups=2, dilation=2, stride=2).sum(),
        'conv3d': lambda: Tensor.rand(1, 2, 5, 5, 5).conv2d(Tensor.rand(3, 2, 2, 2, 2)).sum(),
        'batch_matmul': lambda: (Tensor.rand(3, 1, 4, 5) @ Tensor.rand(2, 5, 6)).sum(),
        'big_reduce': lambda: Tensor.rand(1 << 18).sum(),
        'softmax_big': lambda: Tensor.rand(4, 4096).softmax(-1).sum(),
        'lstm_cell': lambda: (lambda x, h, w, u: ((x @ w + h @ u).sigmoid() * (x @ w).tanh()).sum())(
            Tensor.rand(2, 8), Tensor.rand(2, 8), Tensor.rand(8, 8), Tensor.rand(8, 8)),
        'resblock': lambda: (lambda x: (x + nn.Conv2d(4, 4, 3, padding=1)(nn.Conv2d(4, 4, 3, padding=1)(x).relu())).relu().mean())(
            Tensor.rand(1, 4, 8, 8)),
        'cumprod_minmax': lambda: (Tensor.rand(20) + 0.5).cumprod(0).sum() + Tensor.rand(5, 7).min() + Tensor.rand(5, 7).max(0).sum(),
        'scalar_tensor': lambda: Tensor(3.0) * Tensor.rand(1) + Tensor.rand(1, 1, 1).sum(),
        'activations': lambda: (lambda x: (x.gelu() + x.quick_gelu() + x.silu() + x.mish() + x.softplus() + x.elu() +
                                           x.hardswish()).sum())(Tensor.rand(64) * 4 - 2),
        'topk': lambda: Tensor.rand(24).topk(5)[0].sum(),
        'half_softmax': lambda: Tensor.rand(8, 32).half().softmax(-1).float().sum(),
        'bf16_matmul': lambda: (Tensor.rand(8, 16).cast(dtypes.bfloat16) @ Tensor.rand(16, 4).cast(dtypes.bfloat16)).float().sum(),
        'linspace_eye': lambda: Tensor.linspace(0, 1, 17).sum() + Tensor.eye(5).sum() + Tensor.arange(0, 3, 0.25).sum(),
        'flip_roll_repeat': lambda: Tensor.rand(4, 6).flip(1).roll(2, 0).repeat(2, 1).sum(),
        'pool_pad_ceil': lambda: Tensor.rand(1, 2, 7, 7).max_pool2d(kernel_size=3, stride=2, padding=1).sum() +
                                 Tensor.rand(1, 2, 7, 7).avg_pool2d(kernel_size=2, stride=2, ceil_mode=True).sum(),
        'int8_matmul': lambda: (ints(64, dtypes.int32).reshape(8, 8).cast(dtypes.int8) @
                                ints(64, dtypes.int32).reshape(8, 8).cast(dtypes.int8)).cast(dtypes.int32).sum(),
        'float64_reduce': lambda: (Tensor.rand(100).cast(dtypes.float64) * 1e10).sum() +
                                  Tensor.rand(3, 50).cast(dtypes.float64).std(1).sum(),
        'bitcast_round': lambda: (lambda x: x.bitcast(dtypes.int32).cast(dtypes.float32).sum() + (x * 10).round().sum() +
                                  (x * 10).floor().sum() + (x * 10).ceil().sum() + (x * 10 - 5).trunc().sum())(Tensor.rand(32)),
        'fmod_uint8div': lambda: (Tensor.rand(20) * 10 % 3).sum() + (Tensor.arange(50).cast(dtypes.uint8) // 7).cast(dtypes.int32).sum() +
                                 Tensor.arange(-10, 10).clip(-3, 4).sum(),
        'scatter_masked': lambda: Tensor.zeros(5, 4).contiguous().scatter(0, Tensor([[0, 1, 2, 0]]), Tensor.ones(1, 4)).sum() +
                                  Tensor.rand(4, 4).masked_fill(Tensor.rand(4, 4) > 0.5, -1.0).sum(),
        'cat_many': lambda: Tensor.rand(2, 3).cat(Tensor.rand(1, 3), Tensor.rand(4, 3), Tensor.rand(2, 3), Tensor.rand(1, 3), dim=0).sum(0),
        'randn_normal': lambda: Tensor.randn(32, 8).std() + Tensor.normal(16, mean=2, std=3).mean() +
                                Tensor.uniform(16, low=-2, high=5).sum(),
        'var_sum': lambda: (Tensor.rand(10, 8)[:var('i', 1, 10, 4)] * 2).sum(),
        'var_add': lambda: (Tensor.rand(10, 8)[:var('i', 1, 10, 4)] + 1).contiguous().sum(),
        'var_kv_cache': var_kv_cache,
        'var_two': lambda: Tensor.rand(8, 6).shrink(((0, var('a', 1, 8, 3)), (0, var('b', 1, 6, 5)))).sum(),
        'var_pad': lambda: (lambda vi: Tensor.rand(10)[:vi].pad(((0, 10 - vi),)).contiguous().sum())(var('i', 1, 10, 4)),
        'var_jit': var_jit,
    }


def main():
    checkout = os.environ.get('TINYGRAD', '')
    if not checkout:
        print('TINYGRAD is not set (a tinygrad checkout)', file=sys.stderr)
        return 3
    sys.path.insert(0, os.path.abspath(checkout))
    if sys.argv[1:] == ['--list']:
        os.environ.setdefault('DEV', 'CPU')
        print('\n'.join(workloads()))
        return 0
    if len(sys.argv) != 3:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    name, out = sys.argv[1], sys.argv[2]
    # tinygrad saves its VIZ files under $TMPDIR when the process exits: run in a child process
    # with a private TMPDIR, then move them.
    if os.environ.get('WORKLOAD_CHILD') != '1':
        import subprocess
        tmp = tempfile.mkdtemp(prefix='tinygrad-workload-')
        env = {**os.environ, 'WORKLOAD_CHILD': '1', 'TMPDIR': tmp, 'VIZ': '-1', 'DEV': 'CPU',
               'TRAINING': '1'}
        r = subprocess.run([sys.executable, __file__, name, out], env=env)
        if r.returncode:
            return r.returncode
        os.makedirs(out, exist_ok=True)
        for f in ('rewrites.pkl', 'profile.pkl'):
            found = [p for p in os.listdir(tmp) if p.startswith(f)]
            if not found:
                print(f'tinygrad left no {f} in {tmp}', file=sys.stderr)
                return 1
            shutil.move(os.path.join(tmp, found[0]), os.path.join(out, f))
        shutil.rmtree(tmp, ignore_errors=True)
        return 0
    from tinygrad import Tensor
    Tensor.manual_seed(0)
    table = workloads()
    if name not in table:
        print(f'unknown workload {name!r}; --list names them', file=sys.stderr)
        return 2
    result = table[name]()
    result.tolist()
    return 0


if __name__ == '__main__':
    sys.exit(main())
