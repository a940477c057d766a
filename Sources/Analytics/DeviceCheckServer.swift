import EventEngine

/// Apple's DeviceCheck server as the seed describes it: two bits per device (per developer)
/// and the month of their last modification. Operations take effect when they reach it.
package struct DeviceCheckServer {
    package struct Bits: Equatable {
        package var bit0 = false
        package var bit1 = false
        /// `last_update_time` (YYYY-MM, UTC); nil when the bits were never set.
        package var lastUpdate: YearMonth?

        package var isDefault: Bool { !bit0 && !bit1 }
        package var isBlacklisted: Bool { bit0 && bit1 }
        /// bit0 = 1, bit1 = 0: a worker is waiting for its third read.
        package var isPending: Bool { bit0 && !bit1 }
    }

    package private(set) var devices: [Bits] = []

    package mutating func ensure(device: Int) {
        if device >= devices.count { devices.append(contentsOf: repeatElement(Bits(), count: device + 1 - devices.count)) }
    }

    package func bits(of device: Int) -> Bits { device < devices.count ? devices[device] : Bits() }

    /// Sets both bits; the server records the current month as `last_update_time`.
    package mutating func set(device: Int, bit0: Bool, bit1: Bool, atMs: Int64) {
        ensure(device: device)
        devices[device] = Bits(bit0: bit0, bit1: bit1, lastUpdate: YearMonth(containing: atMs / 1000))
    }
}

/// A DeviceCheck token: opaque to Immuni; the server can tell the device and whether it is valid.
package struct DeviceCheckToken: Equatable {
    package var device: Int32
    package var genuine: Bool
    package var issuedMs: Int64
}
