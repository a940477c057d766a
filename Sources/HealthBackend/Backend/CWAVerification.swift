import EventEngine
import GSL

/// CWA's verification server: a test's QR-code GUID (or a hotline teleTAN) is exchanged once for
/// a registration token; the app polls the test result with it and, when positive, obtains a
/// TAN; the submission server verifies the TAN, which works once.
public struct VerificationServer {
    public enum TANCheck: Equatable, Sendable { case valid, unknown, alreadyUsed }

    /// Registration token → positive result available from this time.
    private var registrations: [UInt64: SimTime] = [:]
    private var registeredGUIDs: Set<UInt64> = []
    private var teleTANs: Set<UInt64> = []
    /// TAN → used?
    private var tans: [UInt64: Bool] = [:]
    private var nextID: UInt64 = 1

    public init() {}

    private mutating func newID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// `POST /version/v1/registrationToken` with the GUID of a scanned QR code; nil on a second use.
    public mutating func register(guid: UInt64, resultAt: SimTime) -> UInt64? {
        guard registeredGUIDs.insert(guid).inserted else { return nil }
        let token = newID()
        registrations[token] = resultAt
        return token
    }

    /// Hotline: `POST /version/v1/tan/teletan`.
    public mutating func issueTeleTAN() -> UInt64 {
        let t = newID()
        teleTANs.insert(t)
        return t
    }

    /// `POST /version/v1/registrationToken` with a teleTAN (single use); the result is positive at once.
    public mutating func register(teleTAN: UInt64, at t: SimTime) -> UInt64? {
        guard teleTANs.remove(teleTAN) != nil else { return nil }
        let token = newID()
        registrations[token] = t
        return token
    }

    /// `POST /version/v1/testresult`: is the positive result there yet?
    public func resultAvailable(token: UInt64, at t: SimTime) -> Bool {
        guard let at = registrations[token] else { return false }
        return t >= at
    }

    /// `POST /version/v1/tan` for a registration token whose result is positive.
    public mutating func issueTAN(token: UInt64, at t: SimTime) -> UInt64? {
        guard resultAvailable(token: token, at: t) else { return nil }
        let tan = newID()
        tans[tan] = false
        return tan
    }

    /// `POST /version/v1/tan/verify` by the submission server: valid once.
    public mutating func verify(tan: UInt64) -> TANCheck {
        guard let used = tans[tan] else { return .unknown }
        if used { return .alreadyUsed }
        tans[tan] = true
        return .valid
    }
}
