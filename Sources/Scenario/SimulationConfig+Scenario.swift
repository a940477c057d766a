import EventEngine
import Simulation

extension SimulationConfig {
    /// Builds the run configuration from a validated, resolved scenario.
    public init(scenario v: ScenarioValue, threads: Int) {
        func int(_ path: String) -> Int { Int(v.at(path)!.intValue!) }
        func number(_ path: String) -> Double { v.at(path)!.doubleValue! }
        self.init(
            name: v.at("name")!.textValue!,
            seed: UInt64(v.at("seed")!.intValue!),
            start: CivilCalendar.parseISODateToTime(v.at("start")!.textValue!)!,
            days: int("days"),
            populationSize: int("population.size"),
            appAdoption: number("population.app_adoption"),
            rpiRotationMinMinutes: int("radio.rpi_rotation_min_minutes"),
            rpiRotationMaxMinutes: int("radio.rpi_rotation_max_minutes"),
            writeHourly: v.at("outputs.hourly")!.boolValue!,
            threads: threads
        )
    }
}
