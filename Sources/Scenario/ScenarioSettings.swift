import Analytics
import Detection
import Distribution
import Epidemic
import EventEngine
import HealthBackend
import P6Phones
import Simulation
import World

/// A scenario in typed form: what the file says, every absent key at its default. The defaults are
/// the initial values of these properties and of the Simulation parameter structs; `ScenarioSchema`
/// binds each key to one property, so validation, the reference, the resolved scenario and the run
/// all read the same value.
public struct ScenarioSettings: Sendable, Equatable {
    /// nil: named after the file.
    public var name: String?
    public var seed: UInt64 = 1
    public var start = CivilDate(year: 2020, month: 10, day: 1)
    public var days = 28
    public var population = PopulationParameters(size: 10_000, appAdoption: 0.4)
    public var adoptionModel = AdoptionModel.overall
    /// Adoption of children, adults and seniors, used when `adoptionModel` is `byAge`.
    public var adoptionByAge = [0.2, 0.5, 0.3]
    public var availability = AvailabilityParameters.default
    public var contacts = ContactParameters.default
    public var radio = RadioParameters.default
    public var detection = DetectionSettings()
    public var health = HealthParameters.default
    public var backend = BackendParameters.default
    public var distribution = DistributionParameters.default
    public var analytics = AnalyticsParameters.default
    public var analyticsSweep = AnalyticsSweepSettings()
    public var p6 = P6RunParameters.default
    public var epidemic = EpidemicParameters.default
    public var writeHourly = true

    public init() {}

    public static let `default` = ScenarioSettings()

    public enum AdoptionModel: String, Sendable, CaseIterable {
        case overall
        case byAge = "by_age"
    }

    /// The run configuration these settings describe.
    public func simulationConfig(threads: Int) -> SimulationConfig {
        var population = population
        population.adoptionByAge = adoptionModel == .byAge ? adoptionByAge : nil
        var analytics = analytics
        analytics.sweepPWithoutExposure = analyticsSweep.values
        var config = SimulationConfig(
            name: name ?? "", seed: seed, start: start.start, days: days, population: population,
            availability: availability, contacts: contacts, radio: radio, health: health, backend: backend,
            distribution: distribution, detection: detection.parameters, analytics: analytics, p6: p6,
            writeHourly: writeHourly, threads: threads)
        config.epidemic = epidemic
        return config
    }
}

/// `analytics.sweep`: p_OWOE values evenly spaced from min to max.
public struct AnalyticsSweepSettings: Sendable, Equatable {
    /// 0: no sweep.
    public var points = 0
    public var minPWithoutExposure = 0.05
    public var maxPWithoutExposure = 1.0

    public var values: [Double] {
        let (lo, hi) = (minPWithoutExposure, maxPWithoutExposure)
        return (0..<max(points, 0)).map { points == 1 ? hi : lo + (hi - lo) * Double($0) / Double(points - 1) }
    }
}

/// The `app.detection` block. Choosing a preset loads its values into the block of its GAEN API;
/// keys given in the file then override them. The other API's block keeps its own values
/// (`cwa-v1` for v1 keys, `cwa-v2` for v2 keys), unused by the run.
public struct DetectionSettings: Sendable, Equatable {
    public private(set) var preset = DetectionParameters.default.preset
    public var v1 = ExposureConfigurationV1.cwaV1
    public var v2 = GAENv2Settings(.cwaV2)
    /// The threshold grid: attenuations from, to (inclusive) and step, and the duration thresholds.
    public var gridAttenuationFrom: Int
    public var gridAttenuationTo: Int
    public var gridAttenuationStep: Int
    public var gridMinutes = DetectionParameters.defaultGridMinutes
    public var keyFileRateLimit = KeyFileRateLimit()
    public var schedule = DetectionSchedule()

    public init() {
        let grid = DetectionParameters.defaultGridAttenuations
        gridAttenuationFrom = grid.first ?? 0
        gridAttenuationTo = grid.last ?? 0
        gridAttenuationStep = grid.count > 1 ? grid[1] - grid[0] : 1
        select(preset)
    }

    /// Makes `preset` the risk model and loads its values, as the base for the keys a file gives.
    public mutating func select(_ preset: DetectionPreset) {
        self.preset = preset
        switch preset.model {
        case .v1(let c): v1 = c
        case .v2(let c): v2 = GAENv2Settings(c)
        }
    }

    public var parameters: DetectionParameters {
        let model: RiskModel = switch preset.model {
        case .v1: .v1(v1)
        case .v2: .v2(v2.config)
        }
        let step = max(gridAttenuationStep, 1)
        var p = DetectionParameters(preset: preset, model: model,
                                    gridAttenuations: Array(stride(from: gridAttenuationFrom, through: gridAttenuationTo, by: step)),
                                    gridMinutes: gridMinutes)
        p.keyFileRateLimit = keyFileRateLimit
        p.schedule = schedule
        return p
    }
}

/// Infectiousness as the file names it; the raw order is GAEN's (0 none, 1 standard, 2 high).
public enum Infectiousness: String, Sendable, CaseIterable {
    case none, standard, high

    init(level: Int) { self = Self.allCases.indices.contains(level) ? Self.allCases[level] : .none }
    var level: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// A GAEN v2 configuration in the file's form: the days-since-onset mapping is one high range
/// and one value for the other days.
public struct GAENv2Settings: Sendable, Equatable {
    /// Every value but the mapping, which `config` builds from the three below.
    public var base: DailySummariesConfigV2
    public var highFromDaysSinceOnset: Int
    public var highToDaysSinceOnset: Int
    public var otherDays: Infectiousness

    public init(_ c: DailySummariesConfigV2) {
        base = c
        let map = c.infectiousnessByDaysSinceOnset
        let high = map.indices.filter { map[$0] == Infectiousness.high.level }
        highFromDaysSinceOnset = (high.first ?? 14) - 14
        highToDaysSinceOnset = (high.last ?? 14) - 14
        otherDays = Infectiousness(level: map.first { $0 != Infectiousness.high.level } ?? Infectiousness.standard.level)
    }

    public var config: DailySummariesConfigV2 {
        var c = base
        c.infectiousnessByDaysSinceOnset = (-14...14).map {
            $0 >= highFromDaysSinceOnset && $0 <= highToDaysSinceOnset ? Infectiousness.high.level : otherDays.level
        }
        return c
    }
}
