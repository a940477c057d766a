/// Italy's 21 NUTS-2 areas (19 regions and the autonomous provinces of Bolzano and Trento):
/// the "province of domicile" granularity the analytics estimates are broken down by, and the
/// areas within which an Immuni upload's province is drawn.
///
/// Resident population on 1 January 2020, ISTAT (demo.istat.it, "Popolazione residente al
/// 1° gennaio 2020"), used as default weights for drawing each phone's domicile.
public enum ItalianRegions {
    public struct Region: Sendable, Equatable {
        public let key: String
        public let name: String
        public let population: Int
    }

    public static let all: [Region] = [
        Region(key: "piemonte", name: "Piemonte", population: 4_311_217),
        Region(key: "valle_d_aosta", name: "Valle d'Aosta", population: 125_034),
        Region(key: "lombardia", name: "Lombardia", population: 10_027_602),
        Region(key: "bolzano", name: "Provincia autonoma di Bolzano", population: 532_644),
        Region(key: "trento", name: "Provincia autonoma di Trento", population: 545_425),
        Region(key: "veneto", name: "Veneto", population: 4_879_133),
        Region(key: "friuli_venezia_giulia", name: "Friuli-Venezia Giulia", population: 1_206_216),
        Region(key: "liguria", name: "Liguria", population: 1_524_826),
        Region(key: "emilia_romagna", name: "Emilia-Romagna", population: 4_464_119),
        Region(key: "toscana", name: "Toscana", population: 3_692_555),
        Region(key: "umbria", name: "Umbria", population: 870_165),
        Region(key: "marche", name: "Marche", population: 1_512_672),
        Region(key: "lazio", name: "Lazio", population: 5_755_700),
        Region(key: "abruzzo", name: "Abruzzo", population: 1_293_941),
        Region(key: "molise", name: "Molise", population: 300_516),
        Region(key: "campania", name: "Campania", population: 5_712_143),
        Region(key: "puglia", name: "Puglia", population: 3_953_305),
        Region(key: "basilicata", name: "Basilicata", population: 553_254),
        Region(key: "calabria", name: "Calabria", population: 1_894_110),
        Region(key: "sicilia", name: "Sicilia", population: 4_875_290),
        Region(key: "sardegna", name: "Sardegna", population: 1_611_621),
    ]
}
