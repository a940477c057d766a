/// The `app.detection` block: the risk model (a preset, possibly with overrides) and the
/// threshold grid scored beside it.
public struct DetectionParameters: Sendable, Equatable {
    public var preset: DetectionPreset
    public var model: RiskModel
    /// Attenuation thresholds (dB) of the trade-off grid in `thresholds.csv`.
    public var gridAttenuations: [Int]
    /// Minimum minutes a day at or below the attenuation threshold, the grid's other axis.
    public var gridMinutes: [Int]
    /// The OS's daily limit on key files checked, per platform (default: none).
    public var keyFileRateLimit = KeyFileRateLimit()
    /// When the app runs detection (default: at every check that fetched files).
    public var schedule = DetectionSchedule()

    public static let defaultGridAttenuations = Array(stride(from: 45, through: 80, by: 5))
    public static let defaultGridMinutes = [5, 10, 15, 20, 30]

    public init(preset: DetectionPreset = .cwaV2, model: RiskModel? = nil,
                gridAttenuations: [Int] = DetectionParameters.defaultGridAttenuations,
                gridMinutes: [Int] = DetectionParameters.defaultGridMinutes) {
        self.preset = preset
        self.model = model ?? preset.model
        self.gridAttenuations = gridAttenuations
        self.gridMinutes = gridMinutes
    }

    public static let `default` = DetectionParameters()
}
