/// Parameters of the contact layers. Defaults are plausible round figures for a European
/// country (household sizes as in Germany's 2019 micro-census; contact counts in the range
/// of the POLYMOD diaries, Mossong et al. 2008); scenarios override them.
public struct ContactParameters: Sendable, Equatable {
    /// Share of households with 1, 2, 3, 4 and 5 members (sum 1); 5 stands for 5 or more.
    public var householdSizeShares: [Double] = [0.41, 0.34, 0.12, 0.09, 0.04]
    /// Time each pair of household members spends near each other per day.
    public var householdMinutesMean: Double = 180
    public var householdMetresMedian: Double = 1.8

    /// Share of adults going to a workplace on weekdays, and workplace size.
    public var employedShare: Double = 0.7
    public var workplaceSizeMean: Double = 12
    /// Colleagues each worker meets per weekday, and for how long.
    public var workplaceContactsMean: Double = 4
    public var workplaceMinutesMean: Double = 40
    public var workplaceMetresMedian: Double = 2.0

    /// Class size and per-weekday contacts of each pupil.
    public var classSize: Int = 22
    public var schoolContactsMean: Double = 6
    public var schoolMinutesMean: Double = 50
    public var schoolMetresMedian: Double = 1.5

    /// Random community contacts per person and day: negative binomial (mean, dispersion k).
    public var communityContactsMean: Double = 4
    public var communityDispersion: Double = 0.8
    public var communityMinutesMean: Double = 12
    public var communityMetresMedian: Double = 2.5

    /// Public transport: share of people riding on weekdays (two trips), co-riders met per trip.
    public var transportShare: Double = 0.15
    public var transportContactsPerTrip: Double = 5
    public var transportMinutesMean: Double = 15
    /// Co-riders stand 1–3 m apart (uniform), as in a crowded vehicle.
    public var transportMetresRange: ClosedRange<Double> = 1...3

    /// Ground-truth close contact: at least `closeContactMinutes` within `closeContactMetres` on one day.
    public var closeContactMetres: Double = 2
    public var closeContactMinutes: Double = 15

    public init() {}

    public static let `default` = ContactParameters()
}
