// A flat open-addressing hash map from uint64 keys to uint64 values (linear probing, power-of-
// two capacity, no erase): the generator's per-circuit lookups, without the node allocations
// of std::unordered_map. Reads are safe from many threads while nothing inserts.
#pragma once
#include <cstdint>
#include <vector>

namespace quartz {

class FlatMap64 {
 public:
  explicit FlatMap64(size_t capacity = 1024) { rehash(capacity < 16 ? 16 : capacity); }

  // The value of `key`, or nullptr.
  const uint64_t* find(uint64_t key) const {
    size_t i = slot(key);
    while (used_[i]) {
      if (keys_[i] == key) return &vals_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  uint64_t* find(uint64_t key) {
    return const_cast<uint64_t*>(static_cast<const FlatMap64*>(this)->find(key));
  }
  // find(), and when the key is absent the slot where put_new() can insert it (valid until
  // the next insertion): a lookup that may insert probes once, not twice.
  uint64_t* find(uint64_t key, size_t* empty) {
    size_t i = slot(key);
    while (used_[i]) {
      if (keys_[i] == key) return &vals_[i];
      i = (i + 1) & mask_;
    }
    *empty = i;
    return nullptr;
  }
  // Inserts an absent key at the slot find(key, &empty) gave.
  void put_new(size_t empty, uint64_t key, uint64_t value) {
    if (2 * (size_ + 1) > keys_.size()) {
      put(key, value);  // grows, so the slot moved
      return;
    }
    used_[empty] = 1;
    keys_[empty] = key;
    vals_[empty] = value;
    size_++;
  }
  // Starts loading the cache lines a lookup of `key` reads first.
  void prefetch(uint64_t key) const {
    const size_t i = slot(key);
    __builtin_prefetch(&used_[i]);
    __builtin_prefetch(&keys_[i]);
    __builtin_prefetch(&vals_[i]);
  }
  // Room for n keys without growing.
  void reserve(size_t n) {
    size_t cap = keys_.size();
    while (cap < 2 * n) cap *= 2;
    if (cap != keys_.size()) rehash(cap);
  }
  // Sets key -> value (inserting or overwriting).
  void put(uint64_t key, uint64_t value) {
    if (2 * (size_ + 1) > keys_.size()) rehash(2 * keys_.size());
    size_t i = slot(key);
    while (used_[i]) {
      if (keys_[i] == key) {
        vals_[i] = value;
        return;
      }
      i = (i + 1) & mask_;
    }
    used_[i] = 1;
    keys_[i] = key;
    vals_[i] = value;
    size_++;
  }
  size_t size() const { return size_; }

 private:
  size_t slot(uint64_t k) const {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<size_t>(k) & mask_;
  }
  void rehash(size_t cap) {
    std::vector<uint64_t> ok = std::move(keys_), ov = std::move(vals_);
    std::vector<uint8_t> ou = std::move(used_);
    keys_.assign(cap, 0);
    vals_.assign(cap, 0);
    used_.assign(cap, 0);
    mask_ = cap - 1;
    size_ = 0;
    for (size_t i = 0; i < ou.size(); i++)
      if (ou[i]) put(ok[i], ov[i]);
  }
  std::vector<uint64_t> keys_, vals_;
  std::vector<uint8_t> used_;
  size_t mask_ = 0, size_ = 0;
};

}  // namespace quartz
