#if canImport(Glibc)
import Glibc
#endif

/// Gives the allocator's free pages back to the kernel (glibc's `malloc_trim`).
///
/// A day frees a few hundred megabytes per million phones (the day's downloads, once matched);
/// glibc keeps freed blocks below its mmap threshold in its arenas, resident, so they added to
/// the next day's contacts phase. A trim costs ~0.1 s per million phones, and is serial: once a
/// day, after detection.
enum FreePages {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// Looked up at run time: the Glibc module does not export `malloc.h`.
    private static let trim: Trim? = {
        #if canImport(Glibc)
        dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
        #else
        nil
        #endif
    }()

    /// Whether the allocator could be asked (false off glibc).
    @discardableResult
    static func release() -> Bool {
        guard let trim else { return false }
        _ = trim(0)
        return true
    }
}
