import ArgumentParser
import Detection
import Foundation
import World

extension RadioCommand {
    /// `ensim radio fit`: the channel of one layer fitted to measurements by maximum likelihood.
    struct Fit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Maximum-likelihood fit of a layer's channel to measurements at known distances.",
            discussion: """
                Transport: extra loss, path-loss exponent and shadowing, fitted to the tram's
                attenuations. Any other layer: path-loss exponent and shadowing, fitted to
                mean RSSI by distance (files of placements,sender,metres,adverts,
                mean_rssi_dbm,sd_rssi_dbm; several --data are fitted together).

                Examples:
                  ensim radio fit --json > Results/studies/transport-fit.json
                  ensim radio fit --layer workplace \\
                    --data Scenarios/data/rss-smartphone/rssi-by-distance.csv \\
                    --data Scenarios/data/office-ble/rssi-by-distance.csv
                """
        )

        // Optional with the default in the help: ArgumentParser shows a raw-value enum's default as its number.
        @Option(name: .customLong("layer"), help: "The layer whose channel is fitted (default: transport).")
        var chosenLayer: ContactLayer?
        var layer: ContactLayer { chosenLayer ?? .transport }

        @Option(help: """
            Measurements (default: \(TramData.defaultPath) for transport, \(Self.indoorDefault) otherwise); \
            repeat to fit several RSSI files together.
            """)
        var data: [String] = []

        @Flag(help: "Print JSON.")
        var json = false

        static let indoorDefault = "Scenarios/data/rss-smartphone/rssi-by-distance.csv"

        func validate() throws {
            guard layer != .transport || data.count <= 1 else { throw ValidationError("--layer transport fits one file of tram measurements") }
        }

        func run() throws {
            if layer == .transport { try fitTransport() } else { try fitIndoor() }
        }

        private func fitTransport() throws {
            let path = data.first ?? TramData.defaultPath
            let measurements: [TramStudy.Measurement]
            do { measurements = try TramStudy.load(csv: path) } catch { throw Console.failure("\(error)") }
            let pairs = TramStudy.fitPairs(measurements)
            let base = RadioParameters.default
            let r = TransportChannelFit.fit(pairs, base: base)
            let transport = ContactLayer.transport.rawValue
            let before = TransportChannelFit.logLikelihood(pairs, base: base, environmentLoss: base.environmentLoss[transport],
                                                           exponent: base.pathLossExponent[transport], sigma: base.shadowingSigma[transport])
            if json {
                let report: [String: Any] = [
                    "data": path, "pairs": r.pairs, "measurements": measurements.count, "converged": r.converged,
                    "environment_loss_db": r.environmentLoss, "path_loss_exponent": r.pathLossExponent, "shadowing_sigma_db": r.shadowingSigma,
                    "standard_errors": ["environment_loss_db": r.standardErrors[0], "path_loss_exponent": r.standardErrors[1],
                                        "shadowing_sigma_db": r.standardErrors[2]],
                    "log_likelihood": r.logLikelihood, "log_likelihood_defaults": before,
                    "defaults": ["environment_loss_db": base.environmentLoss[transport], "path_loss_exponent": base.pathLossExponent[transport],
                                 "shadowing_sigma_db": base.shadowingSigma[transport]],
                ]
                try printJSON(report)
                return
            }
            print("transport channel fitted to \(r.pairs) tram pairs (\(measurements.count - r.pairs) recorded nothing)\(r.converged ? "" : " (not converged)")")
            print(String(format: "environment loss     %6.2f dB ± %.2f   (default %.2f)", r.environmentLoss, r.standardErrors[0], base.environmentLoss[transport]))
            print(String(format: "path-loss exponent   %6.2f    ± %.2f   (default %.2f)", r.pathLossExponent, r.standardErrors[1], base.pathLossExponent[transport]))
            print(String(format: "shadowing sigma      %6.2f dB ± %.2f   (default %.2f)", r.shadowingSigma, r.standardErrors[2], base.shadowingSigma[transport]))
            print(String(format: "log-likelihood       %8.2f   (defaults: %.2f)", r.logLikelihood, before))
        }

        private func fitIndoor() throws {
            let paths = data.isEmpty ? [Self.indoorDefault] : data
            let files: [[RSSIByDistance.Row]]
            do { files = try paths.map { try RSSIByDistance.load(csv: $0) } } catch { throw Console.failure("\(error)") }
            let (rows, groups) = RSSIByDistance.fitRows(files)
            guard rows.count > groups.count + 2 else {
                throw Console.failure("\(paths.joined(separator: ", ")): \(rows.count) rows with ≥ \(RSSIByDistance.minimumAdverts) adverts in \(groups.count) groups: too few to fit")
            }
            let base = RadioParameters.default, i = layer.rawValue
            let r = IndoorChannelFit.fit(rows, groups: groups.count, base: base)
            let before = IndoorChannelFit.logLikelihoodWithBestOffsets(rows, groups: groups.count, base: base,
                                                                        exponent: base.pathLossExponent[i], sigma: base.shadowingSigma[i])
            let used = files.reduce(0) { $0 + $1.count }
            if json {
                let report: [String: Any] = [
                    "layer": layer.name, "data": paths, "rows": r.rows, "rows_left_out": used - r.rows, "minimum_adverts": RSSIByDistance.minimumAdverts,
                    "converged": r.converged, "path_loss_exponent": r.pathLossExponent, "shadowing_sigma_db": r.shadowingSigma,
                    "standard_errors": ["path_loss_exponent": r.standardErrors[0], "shadowing_sigma_db": r.standardErrors[1]],
                    "groups": zip(groups, zip(r.offsets, r.offsetErrors)).map { ["group": $0, "offset_db": $1.0, "standard_error": $1.1] },
                    "log_likelihood": r.logLikelihood, "log_likelihood_defaults": before,
                    "defaults": ["environment_loss_db": base.environmentLoss[i], "path_loss_exponent": base.pathLossExponent[i],
                                 "shadowing_sigma_db": base.shadowingSigma[i]],
                    "not_identified": ["environment_loss_db"],
                ]
                try printJSON(report)
                return
            }
            print("\(layer.name) channel fitted to \(r.rows) rows in \(groups.count) groups (\(used - r.rows) with < \(RSSIByDistance.minimumAdverts) adverts left out)\(r.converged ? "" : " (not converged)")")
            print(String(format: "path-loss exponent   %6.2f    ± %.2f   (default %.2f)", r.pathLossExponent, r.standardErrors[0], base.pathLossExponent[i]))
            print(String(format: "shadowing sigma      %6.2f dB ± %.2f   (default %.2f)", r.shadowingSigma, r.standardErrors[1], base.shadowingSigma[i]))
            print(String(format: "log-likelihood       %8.2f   (defaults, offsets refitted: %.2f)", r.logLikelihood, before))
            print("offsets c_g (dB; A₁, L_env, placements and the phones' calibration, not separable):")
            for (name, (c, e)) in zip(groups, zip(r.offsets, r.offsetErrors)) { print(String(format: "  %6.1f ± %.1f  %@", c, e, name)) }
        }

        private func printJSON(_ report: [String: Any]) throws {
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
        }
    }
}
