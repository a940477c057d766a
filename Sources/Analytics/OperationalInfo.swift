import Crypto
import EventEngine
import HealthBackend
import World

/// What a phone uploads to the Analytics Service (seed: "Operational Info"), plus the
/// province of domicile. Flags are integers as in Immuni's API, so the payload size does not
/// reveal whether the user was notified.
package struct OperationalInfo: Equatable {
    package var os: OperatingSystem
    /// Area of domicile: the service's own lookup from the province (kept for tallying).
    package var region: Int
    /// Index into `ItalianProvinces.all` (-1: none); sent as its two-letter code.
    package var province: Int
    package var exposurePermission: Bool
    package var bluetoothActive: Bool
    package var notificationPermission: Bool
    package var exposureNotification: Bool
    /// Day number (days since 1970-01-01) of the last risky exposure, if any.
    package var lastRiskyExposureDay: Int64?

    /// Canonical encoding hashed into the SafetyNet nonce.
    package var encoded: [UInt8] {
        let date = lastRiskyExposureDay.map { CivilCalendar.isoDateString($0 * SimDuration.day) } ?? ""
        let text = "{\"platform\":\"\(os.name)\",\"province\":\"\(provinceCode)\",\"exposure_permission\":\(exposurePermission ? 1 : 0),"
            + "\"bluetooth_active\":\(bluetoothActive ? 1 : 0),\"notification_permission\":\(notificationPermission ? 1 : 0),"
            + "\"exposure_notification\":\(exposureNotification ? 1 : 0),\"last_risky_exposure_on\":\"\(date)\"}"
        return Array(text.utf8)
    }

    package var provinceCode: String { province >= 0 ? ItalianProvinces.all[province].code : "" }

    /// SHA-256 of the info with the salt appended: the nonce given to the SafetyNet Attestation API.
    package func nonce(salt: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: encoded + salt))
    }
}
