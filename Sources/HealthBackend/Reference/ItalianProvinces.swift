import GSL

/// Italy's 107 provinces (2020), the "province of domicile" the Operational Info carries.
/// Codes are the two-letter sigle Immuni's apps send ("RM", "MI", …, "SU" Sud Sardegna);
/// each province belongs to one of the 21 areas of `ItalianRegions` (Bolzano and Trento are
/// both a province and an area).
///
/// Population: ISTAT residents on 1 January 2019 (demo.istat.it, the series before the 2019
/// permanent census revision), per province as published in a public province table found
/// through code search; its regional sums reproduce ISTAT's 1 January 2019 regional totals
/// (e.g. Lombardia 10,060,574). They are used only as weights within a region, so the year
/// differs harmlessly from `ItalianRegions` (2020, census-revised): per region the sums are
/// within 3.5% of it (tested), the gap being the census revision, largest in the South.
public enum ItalianProvinces {
    public struct Province: Sendable, Equatable {
        public let code: String
        public let name: String
        /// Key of the area in `ItalianRegions`.
        public let region: String
        public let population: Int
    }

    /// Index of each province's area in `ItalianRegions.all`.
    public static let regionIndex: [Int] = all.map { p in ItalianRegions.all.firstIndex { $0.key == p.region }! }

    /// Province indices of each area, in table order.
    public static let byRegion: [[Int]] = ItalianRegions.all.indices.map { r in all.indices.filter { regionIndex[$0] == r } }

    /// Each area's provinces weighted by population.
    public static let withinRegion: [DiscreteDistribution] = byRegion.map { members in
        try! DiscreteDistribution(weights: members.map { Double(all[$0].population) })
    }

    /// The province of domicile of `phone` in area `region`: a draw of its own stream
    /// ("analytics.province", phone), so analytics profiles and Immuni uploads agree.
    public static func province(ofPhone phone: Int, inRegion region: Int, seed: UInt64, stream: RandomStream? = nil) -> Int {
        let key = StreamKey(seed: seed, stream: "analytics.province", index: UInt64(phone))
        let rng = stream ?? RandomStream(seed: seed, stream: "analytics.province", generator: .taus2)
        rng.reseed(key)
        return byRegion[region][withinRegion[region].sample(rng)]
    }

    public static let all: [Province] = [
        Province(code: "TO", name: "Torino", region: "piemonte", population: 2_259_523),
        Province(code: "VC", name: "Vercelli", region: "piemonte", population: 170_906),
        Province(code: "NO", name: "Novara", region: "piemonte", population: 365_988),
        Province(code: "CN", name: "Cuneo", region: "piemonte", population: 586_017),
        Province(code: "AT", name: "Asti", region: "piemonte", population: 213_964),
        Province(code: "AL", name: "Alessandria", region: "piemonte", population: 421_081),
        Province(code: "BI", name: "Biella", region: "piemonte", population: 175_585),
        Province(code: "VB", name: "Verbano-Cusio-Ossola", region: "piemonte", population: 157_864),
        Province(code: "AO", name: "Aosta", region: "valle_d_aosta", population: 125_501),
        Province(code: "MI", name: "Milano", region: "lombardia", population: 3_250_315),
        Province(code: "BG", name: "Bergamo", region: "lombardia", population: 1_114_590),
        Province(code: "BS", name: "Brescia", region: "lombardia", population: 1_265_954),
        Province(code: "CO", name: "Como", region: "lombardia", population: 599_204),
        Province(code: "CR", name: "Cremona", region: "lombardia", population: 358_955),
        Province(code: "LC", name: "Lecco", region: "lombardia", population: 337_380),
        Province(code: "LO", name: "Lodi", region: "lombardia", population: 230_198),
        Province(code: "MN", name: "Mantova", region: "lombardia", population: 412_292),
        Province(code: "MB", name: "Monza e Brianza", region: "lombardia", population: 873_935),
        Province(code: "PV", name: "Pavia", region: "lombardia", population: 545_888),
        Province(code: "SO", name: "Sondrio", region: "lombardia", population: 181_095),
        Province(code: "VA", name: "Varese", region: "lombardia", population: 890_768),
        Province(code: "BZ", name: "Bolzano", region: "bolzano", population: 531_178),
        Province(code: "TN", name: "Trento", region: "trento", population: 541_098),
        Province(code: "VR", name: "Verona", region: "veneto", population: 926_497),
        Province(code: "VI", name: "Vicenza", region: "veneto", population: 865_082),
        Province(code: "BL", name: "Belluno", region: "veneto", population: 201_760),
        Province(code: "TV", name: "Treviso", region: "veneto", population: 887_806),
        Province(code: "VE", name: "Venezia", region: "veneto", population: 853_338),
        Province(code: "PD", name: "Padova", region: "veneto", population: 937_908),
        Province(code: "RO", name: "Rovigo", region: "veneto", population: 234_746),
        Province(code: "UD", name: "Udine", region: "friuli_venezia_giulia", population: 530_849),
        Province(code: "GO", name: "Gorizia", region: "friuli_venezia_giulia", population: 140_611),
        Province(code: "TS", name: "Trieste", region: "friuli_venezia_giulia", population: 234_668),
        Province(code: "PN", name: "Pordenone", region: "friuli_venezia_giulia", population: 314_487),
        Province(code: "GE", name: "Genova", region: "liguria", population: 846_515),
        Province(code: "IM", name: "Imperia", region: "liguria", population: 213_840),
        Province(code: "SP", name: "La Spezia", region: "liguria", population: 219_556),
        Province(code: "SV", name: "Savona", region: "liguria", population: 277_325),
        Province(code: "BO", name: "Bologna", region: "emilia_romagna", population: 1_017_196),
        Province(code: "FE", name: "Ferrara", region: "emilia_romagna", population: 345_691),
        Province(code: "FC", name: "Forlì-Cesena", region: "emilia_romagna", population: 394_627),
        Province(code: "MO", name: "Modena", region: "emilia_romagna", population: 705_393),
        Province(code: "PR", name: "Parma", region: "emilia_romagna", population: 451_631),
        Province(code: "PC", name: "Piacenza", region: "emilia_romagna", population: 287_152),
        Province(code: "RA", name: "Ravenna", region: "emilia_romagna", population: 391_997),
        Province(code: "RE", name: "Reggio Emilia", region: "emilia_romagna", population: 532_872),
        Province(code: "RN", name: "Rimini", region: "emilia_romagna", population: 339_017),
        Province(code: "AR", name: "Arezzo", region: "toscana", population: 343_592),
        Province(code: "FI", name: "Firenze", region: "toscana", population: 1_011_349),
        Province(code: "GR", name: "Grosseto", region: "toscana", population: 221_507),
        Province(code: "LI", name: "Livorno", region: "toscana", population: 334_832),
        Province(code: "LU", name: "Lucca", region: "toscana", population: 389_220),
        Province(code: "MS", name: "Massa-Carrara", region: "toscana", population: 194_878),
        Province(code: "PI", name: "Pisa", region: "toscana", population: 421_642),
        Province(code: "PT", name: "Pistoia", region: "toscana", population: 292_473),
        Province(code: "PO", name: "Prato", region: "toscana", population: 257_716),
        Province(code: "SI", name: "Siena", region: "toscana", population: 268_706),
        Province(code: "PG", name: "Perugia", region: "umbria", population: 656_382),
        Province(code: "TR", name: "Terni", region: "umbria", population: 225_633),
        Province(code: "AN", name: "Ancona", region: "marche", population: 474_576),
        Province(code: "AP", name: "Ascoli Piceno", region: "marche", population: 205_733),
        Province(code: "FM", name: "Fermo", region: "marche", population: 172_539),
        Province(code: "MC", name: "Macerata", region: "marche", population: 315_223),
        Province(code: "PU", name: "Pesaro e Urbino", region: "marche", population: 358_886),
        Province(code: "RM", name: "Roma", region: "lazio", population: 4_342_212),
        Province(code: "FR", name: "Frosinone", region: "lazio", population: 489_873),
        Province(code: "LT", name: "Latina", region: "lazio", population: 579_383),
        Province(code: "RI", name: "Rieti", region: "lazio", population: 153_749),
        Province(code: "VT", name: "Viterbo", region: "lazio", population: 317_030),
        Province(code: "AQ", name: "L'Aquila", region: "abruzzo", population: 299_556),
        Province(code: "CH", name: "Chieti", region: "abruzzo", population: 387_649),
        Province(code: "PE", name: "Pescara", region: "abruzzo", population: 319_936),
        Province(code: "TE", name: "Teramo", region: "abruzzo", population: 307_603),
        Province(code: "CB", name: "Campobasso", region: "molise", population: 221_238),
        Province(code: "IS", name: "Isernia", region: "molise", population: 84_379),
        Province(code: "AV", name: "Avellino", region: "campania", population: 423_977),
        Province(code: "BN", name: "Benevento", region: "campania", population: 277_107),
        Province(code: "CE", name: "Caserta", region: "campania", population: 922_965),
        Province(code: "NA", name: "Napoli", region: "campania", population: 3_082_905),
        Province(code: "SA", name: "Salerno", region: "campania", population: 1_098_513),
        Province(code: "BA", name: "Bari", region: "puglia", population: 1_251_994),
        Province(code: "BT", name: "Barletta-Andria-Trani", region: "puglia", population: 391_097),
        Province(code: "BR", name: "Brindisi", region: "puglia", population: 394_090),
        Province(code: "FG", name: "Foggia", region: "puglia", population: 621_299),
        Province(code: "LE", name: "Lecce", region: "puglia", population: 796_806),
        Province(code: "TA", name: "Taranto", region: "puglia", population: 578_828),
        Province(code: "MT", name: "Matera", region: "basilicata", population: 198_204),
        Province(code: "PZ", name: "Potenza", region: "basilicata", population: 365_891),
        Province(code: "CZ", name: "Catanzaro", region: "calabria", population: 359_927),
        Province(code: "CS", name: "Cosenza", region: "calabria", population: 705_753),
        Province(code: "KR", name: "Crotone", region: "calabria", population: 174_605),
        Province(code: "RC", name: "Reggio Calabria", region: "calabria", population: 548_009),
        Province(code: "VV", name: "Vibo Valentia", region: "calabria", population: 160_073),
        Province(code: "AG", name: "Agrigento", region: "sicilia", population: 436_903),
        Province(code: "CL", name: "Caltanissetta", region: "sicilia", population: 268_752),
        Province(code: "CT", name: "Catania", region: "sicilia", population: 1_107_702),
        Province(code: "EN", name: "Enna", region: "sicilia", population: 164_788),
        Province(code: "ME", name: "Messina", region: "sicilia", population: 631_297),
        Province(code: "PA", name: "Palermo", region: "sicilia", population: 1_252_588),
        Province(code: "RG", name: "Ragusa", region: "sicilia", population: 320_893),
        Province(code: "SR", name: "Siracusa", region: "sicilia", population: 399_224),
        Province(code: "TP", name: "Trapani", region: "sicilia", population: 430_492),
        Province(code: "CA", name: "Cagliari", region: "sardegna", population: 431_038),
        Province(code: "NU", name: "Nuoro", region: "sardegna", population: 210_972),
        Province(code: "OR", name: "Oristano", region: "sardegna", population: 157_965),
        Province(code: "SS", name: "Sassari", region: "sardegna", population: 493_357),
        Province(code: "SU", name: "Sud Sardegna", region: "sardegna", population: 356_396),
    ]
}
