import EventEngine
import GAEN

/// A key as a client submits it: raw fields, so malformed input can be represented.
public struct SubmittedKey: Sendable, Hashable {
    public var keyData: [UInt8]
    public var rollingStartIntervalNumber: UInt32
    public var rollingPeriod: UInt32
    public var transmissionRiskLevel: Int32?
    public var daysSinceOnsetOfSymptoms: Int32?

    public init(keyData: [UInt8], rollingStartIntervalNumber: UInt32, rollingPeriod: UInt32 = 144,
                transmissionRiskLevel: Int32? = nil, daysSinceOnsetOfSymptoms: Int32? = nil) {
        self.keyData = keyData
        self.rollingStartIntervalNumber = rollingStartIntervalNumber
        self.rollingPeriod = rollingPeriod
        self.transmissionRiskLevel = transmissionRiskLevel
        self.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms
    }

    public init(_ key: TemporaryExposureKey, transmissionRiskLevel: Int32?, daysSinceOnsetOfSymptoms: Int32?) {
        self.init(keyData: key.keyData.bytes, rollingStartIntervalNumber: key.rollingStartIntervalNumber.rawValue,
                  rollingPeriod: key.rollingPeriod, transmissionRiskLevel: transmissionRiskLevel,
                  daysSinceOnsetOfSymptoms: daysSinceOnsetOfSymptoms)
    }

    public var diagnosisKey: DiagnosisKey? {
        guard let data = Bytes16(bytes: keyData),
              let tek = try? TemporaryExposureKey(keyData: data, rollingStartIntervalNumber: ENIntervalNumber(rollingStartIntervalNumber),
                                                  rollingPeriod: rollingPeriod) else { return nil }
        return DiagnosisKey(tek, transmissionRiskLevel: transmissionRiskLevel, reportType: .confirmedTest,
                            daysSinceOnsetOfSymptoms: daysSinceOnsetOfSymptoms)
    }
}

/// Why a server rejects a whole upload (HTTP 400).
public enum RejectionReason: String, Sendable, CaseIterable {
    case noKeys = "no_keys"
    case tooManyKeys = "too_many_keys"
    case malformedKey = "malformed_key"
    case duplicateKey = "duplicate_key"
    case futureKey = "future_key"
    case overlappingKeys = "overlapping_keys"
    case notMidnightAligned = "not_midnight_aligned"
    case invalidRisk = "invalid_risk"
}

/// Server-side payload validation, per flavor:
/// - CWA (ValidSubmissionPayload): 1…14 keys, 16-byte key data, rolling start at UTC midnight,
///   period 1…144, TRL 1…8 or DSOS −14…4000 present, no duplicate key data, no overlapping
///   periods, nothing in the future.
/// - Immuni (TekListValidator): ≤ 30 keys, unique key data, unique (start, period), all starts
///   congruent modulo 144, period 1…144, nothing in the future.
public struct UploadValidator: Sendable {
    public let flavor: BackendFlavor
    public let maxKeys: Int

    public init(flavor: BackendFlavor, maxKeys: Int) {
        self.flavor = flavor
        self.maxKeys = maxKeys
    }

    public func validate(_ keys: [SubmittedKey], at now: SimTime) -> RejectionReason? {
        if keys.isEmpty { return flavor == .cwa ? .noKeys : nil }
        if keys.count > maxKeys { return .tooManyKeys }
        let nowInterval = UInt32(now / ENIntervalNumber.secondsPerInterval)
        for k in keys {
            if k.keyData.count != TemporaryExposureKey.keyLength || !(1...144).contains(k.rollingPeriod) { return .malformedKey }
            if k.rollingStartIntervalNumber > nowInterval { return .futureKey }
        }
        if Set(keys.map(\.keyData)).count != keys.count { return .duplicateKey }
        switch flavor {
        case .cwa:
            for k in keys {
                if k.rollingStartIntervalNumber % 144 != 0 { return .notMidnightAligned }
                let trlOK = k.transmissionRiskLevel.map { (1...8).contains($0) }
                let dsosOK = k.daysSinceOnsetOfSymptoms.map { (-14...4000).contains($0) }
                if trlOK == false || dsosOK == false || (trlOK == nil && dsosOK == nil) { return .invalidRisk }
            }
            let sorted = keys.sorted { $0.rollingStartIntervalNumber < $1.rollingStartIntervalNumber }
            for (a, b) in zip(sorted, sorted.dropFirst()) where a.rollingStartIntervalNumber + a.rollingPeriod > b.rollingStartIntervalNumber {
                return .overlappingKeys
            }
        case .immuni:
            let pairs = Set(keys.map { UInt64($0.rollingStartIntervalNumber) << 32 | UInt64($0.rollingPeriod) })
            if pairs.count != keys.count { return .overlappingKeys }
            let base = keys.map(\.rollingStartIntervalNumber).min()! % 144
            if keys.contains(where: { $0.rollingStartIntervalNumber % 144 != base }) { return .notMidnightAligned }
        }
        return nil
    }
}
