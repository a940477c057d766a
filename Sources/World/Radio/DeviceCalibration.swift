/// A phone model as GAEN's calibration sees it: the Tx power it advertises (in the metadata)
/// and the correction added to its measured RSSI. Values are representative of Google's
/// published Android calibration table (June 2020: RSSI correction median −5 dB, range −37…14;
/// Tx median −24 dB, range −46…2), with iPhones as the reference; approximate, not a copy of it.
public struct DeviceModel: Sendable, Equatable {
    /// Scenario key (`radio.android_model_shares.<key>`).
    public let key: String
    public let name: String
    public let os: OperatingSystem
    public let txPowerDBm: Int8
    public let rssiCorrectionDB: Int8
    /// Share among phones of that OS.
    public var share: Double

    public static let defaults: [DeviceModel] = [
        DeviceModel(key: "iphone", name: "iPhone", os: .iOS, txPowerDBm: -8, rssiCorrectionDB: 0, share: 1),
        DeviceModel(key: "pixel_4", name: "Google Pixel 4", os: .android, txPowerDBm: -28, rssiCorrectionDB: 5, share: 0.05),
        DeviceModel(key: "pixel_3", name: "Google Pixel 3", os: .android, txPowerDBm: -34, rssiCorrectionDB: -4, share: 0.05),
        DeviceModel(key: "galaxy_s9", name: "Samsung Galaxy S9", os: .android, txPowerDBm: -27, rssiCorrectionDB: 1, share: 0.25),
        DeviceModel(key: "galaxy_s10", name: "Samsung Galaxy S10", os: .android, txPowerDBm: -24, rssiCorrectionDB: -3, share: 0.25),
        DeviceModel(key: "huawei_p30", name: "Huawei P30", os: .android, txPowerDBm: -24, rssiCorrectionDB: -5, share: 0.2),
        DeviceModel(key: "nexus_5x", name: "LG Nexus 5X", os: .android, txPowerDBm: -17, rssiCorrectionDB: -15, share: 0.2),
    ]
}
