// Model presets. Architecture presets set the shape (H, L, T, V and the real attention head count:
// a tensor degree must divide it) and keep the user's batch settings and precision; the paper's two
// configurations set every field (GeoTrain paper, Sect. 6), and no head count, which the paper
// does not give (a preset's missing field is removed, so no earlier preset's heads linger).
export const MODEL_PRESETS = [
  { name: 'GPT-2 small (124M)', model: { hidden_size: 768, num_layers: 12, seq_length: 1024, vocab_size: 50257, num_attention_heads: 12 } },
  { name: 'GPT-2 medium (355M)', model: { hidden_size: 1024, num_layers: 24, seq_length: 1024, vocab_size: 50257, num_attention_heads: 16 } },
  { name: 'GPT-2 large (774M)', model: { hidden_size: 1280, num_layers: 36, seq_length: 1024, vocab_size: 50257, num_attention_heads: 20 } },
  { name: 'GPT-2 XL (1.5B)', model: { hidden_size: 1600, num_layers: 48, seq_length: 1024, vocab_size: 50257, num_attention_heads: 25 } },
  { name: 'LLaMA-7B-like', model: { hidden_size: 4096, num_layers: 32, seq_length: 2048, vocab_size: 32000, num_attention_heads: 32 } },
  { name: 'LLaMA-13B-like', model: { hidden_size: 5120, num_layers: 40, seq_length: 2048, vocab_size: 32000, num_attention_heads: 40 } },
  { name: 'LLaMA-70B-like', model: { hidden_size: 8192, num_layers: 80, seq_length: 4096, vocab_size: 32000, num_attention_heads: 64 } },
  {
    name: 'Paper: real training (fp32)',
    model: {
      hidden_size: 1024, num_layers: 16, seq_length: 128, vocab_size: 50258,
      micro_batch_size: 16, global_batch_size: 1024, precision: 'fp32',
    },
  },
  {
    name: 'Paper: simulation (fp16)',
    model: {
      hidden_size: 2048, num_layers: 12, seq_length: 2048, vocab_size: 50258,
      micro_batch_size: 8, global_batch_size: 64, precision: 'fp16',
    },
  },
];
