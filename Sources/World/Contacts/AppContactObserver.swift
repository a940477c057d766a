import EventEngine

/// Watches one day's contacts between two app phones (the GAEN radio, P6 phones). The contact
/// phase runs in shards on several threads: it asks the observer for one recorder per shard,
/// used only on that shard's thread, and calls `endShards` once every shard is done, so the
/// observer merges them in shard order and what it keeps never depends on the thread count.
package protocol AppContactObserver: AnyObject {
    /// Today's contact phase is about to run in `count` shards.
    func beginShards(_ count: Int)
    /// The recorder of shard `index`; called on that shard's thread.
    func recorder(shard index: Int) -> any AppContactRecorder
    /// Every shard is done.
    func endShards()
}

/// One shard's view of an `AppContactObserver`.
package protocol AppContactRecorder: AnyObject {
    /// `key` identifies the contact within the run (initiator, day, ordinal).
    func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64)
}

/// Watches every contact of the day, app users or not (the epidemic's transmission), sharded
/// like `AppContactObserver`.
package protocol ContactObserver: AnyObject {
    func beginShards(_ count: Int)
    func recorder(shard index: Int) -> any ContactRecorder
    func endShards()
}

/// One shard's view of a `ContactObserver`.
package protocol ContactRecorder: AnyObject {
    /// `key` identifies the contact within the run (initiator, day, ordinal).
    func record(_ contact: ContactView, key: UInt64)
}

/// Removes contacts before anything sees them (quarantine, isolation). Called from every
/// shard's thread: it must only read state that does not change during the contact phase.
package protocol ContactGate: AnyObject {
    func removes(_ contact: ContactView) -> Bool
}
