#ifndef ENSIM_CPREFETCH_H
#define ENSIM_CPREFETCH_H

/// Software prefetch (a hint; never faults). Swift has no prefetch of its own; the event
/// engine uses it to start the cache miss of the next event's payload and queue node while
/// the current event is handled.
static inline void ensim_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
