import EventEngine
import GSL

/// A positive delay drawn from a gamma distribution given by mean and standard deviation
/// (sd 0 gives the mean exactly). Gamma keeps delays positive and right-skewed, as reported
/// test and reporting delays are.
public struct Delay: Sendable, Equatable {
    public var mean: Double
    public var sd: Double

    public init(mean: Double, sd: Double) {
        self.mean = mean
        self.sd = sd
    }

    public func draw(_ rng: RandomStream) -> Double {
        switch form {
        case .constant(let delay): delay
        case .gamma(let shape): rng.gamma(shape: shape, scale: mean / shape)
        }
    }

    /// A delay that a draw exceeds with probability `q`.
    public func upperQuantile(_ q: Double) -> Double {
        switch form {
        case .constant(let delay): delay
        case .gamma(let shape): Quantiles.gammaUpper(q, shape: shape, scale: mean / shape)
        }
    }

    private enum Form {
        case constant(Double)
        case gamma(shape: Double)
    }

    /// A gamma, or a constant when there is no mean or no spread. Extremes within the keys'
    /// ranges are constants too: a spread negligible beside the mean (an infinite shape) is the
    /// mean, and a mean negligible beside its spread (a shape that underflows, so an infinite
    /// scale and a NaN draw: a retry delay of 1e-320 minutes trapped when it became seconds) is 0.
    private var form: Form {
        guard mean > 0 else { return .constant(0) }
        guard sd > 0 else { return .constant(mean) }
        let shape = (mean / sd) * (mean / sd)
        guard shape.isFinite else { return .constant(mean) }
        return shape >= Double.leastNormalMagnitude ? .gamma(shape: shape) : .constant(0)
    }
}

/// Index cases and what happens between infection and a positive result in the app.
public struct HealthParameters: Sendable, Equatable {
    /// Positive results per day in the contact population (used when `casesPerDaySeries` is nil).
    public var casesPerDay: Double = 1
    /// CSV with columns `date,cases`; path as resolved by the scenario layer. Loaded at run start.
    public var casesCSV: String? = nil
    /// Multiplies the CSV's counts (e.g. contact population / national population).
    public var casesCSVScale: Double = 1
    /// Share of cases that never develop symptoms.
    public var asymptomaticShare: Double = 0.3
    /// Infection → start of infectiousness (latent period), days. With 2 presymptomatic days the
    /// mean incubation (infection → onset) is 5 days, as reported for SARS-CoV-2 in 2020.
    public var latentPeriodDays = Delay(mean: 3, sd: 1.5)
    /// Days before symptom onset that infectiousness starts.
    public var presymptomaticDays = 2
    /// Symptom onset → test (symptomatic) or infectious start → test (asymptomatic), days.
    public var onsetToTest = Delay(mean: 2, sd: 1.5)
    /// Test → result, hours.
    public var resultDelayHours = Delay(mean: 30, sd: 15)
    /// Share of app users with a positive result who agree to upload their keys.
    public var uploadConsentShare: Double = 0.6
    /// Result known in the app → user starts the upload, hours.
    public var consentDelayHours = Delay(mean: 4, sd: 4)
    /// Share of consenting users lost before verification succeeds (app closed, call missed, …).
    public var verificationDropoutShare: Double = 0.05
    /// Uploads from people outside the contact population per day (random keys, uploader −1),
    /// so a small population still produces national-size packages.
    public var nationalUploadsPerDay: Double = 0

    public init() {}

    public static let `default` = HealthParameters()
}
