import EventEngine

/// Apple's DeviceCheck server as the seed describes it: two bits per device (per developer)
/// and the month of their last modification. Operations take effect when they reach it.
struct DeviceCheckServer {
    struct Bits: Equatable {
        var bit0 = false
        var bit1 = false
        /// `last_update_time` (YYYY-MM, UTC); nil when the bits were never set.
        var lastUpdate: YearMonth?

        var isDefault: Bool { !bit0 && !bit1 }
        var isBlacklisted: Bool { bit0 && bit1 }
        /// bit0 = 1, bit1 = 0: a worker is waiting for its third read.
        var isPending: Bool { bit0 && !bit1 }
    }

    private(set) var devices: [Bits] = []

    mutating func ensure(device: Int) {
        if device >= devices.count { devices.append(contentsOf: repeatElement(Bits(), count: device + 1 - devices.count)) }
    }

    func bits(of device: Int) -> Bits { device < devices.count ? devices[device] : Bits() }

    /// Sets both bits; the server records the current month as `last_update_time`.
    mutating func set(device: Int, bit0: Bool, bit1: Bool, atMs: Int64) {
        ensure(device: device)
        devices[device] = Bits(bit0: bit0, bit1: bit1, lastUpdate: YearMonth(containing: atMs / 1000))
    }
}

/// A DeviceCheck token: opaque to Immuni; the server can tell the device and whether it is valid.
struct DeviceCheckToken: Equatable {
    var device: Int32
    var genuine: Bool
    var issuedMs: Int64
}
