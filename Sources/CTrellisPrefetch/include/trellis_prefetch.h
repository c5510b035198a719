#ifndef TRELLIS_PREFETCH_H
#define TRELLIS_PREFETCH_H

/// Asks the processor to bring the first two cache lines at `address` into its caches, for
/// writing, without waiting for them: Swift has no prefetch of its own. A hint only — it never
/// faults, whatever the address.
static inline void trellis_prefetch_object(const void *address) {
    __builtin_prefetch(address, 1, 3);
    __builtin_prefetch((const char *)address + 64, 1, 3);
}

#endif
