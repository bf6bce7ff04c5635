import Foundation
import Scheduling
import SharedKernel
import Specialists

/// The practice's clinicians, appointment types and rooms as array positions, so each
/// appointment carries small integers instead of UUIDs and the per-segment tallies are
/// arrays rather than dictionaries.
///
/// Ids an appointment mentions that the history does not know get a position too (after
/// the known ones) and an "Unknown …" name: they are still counted, never trusted for fees,
/// specialties or working time.
struct Catalogue: Sendable {
    // Clinicians.
    private(set) var clinicianIDs: [UUID] = []
    private(set) var clinicianNames: [String] = []
    private(set) var clinicians: [Clinician?] = []
    private(set) var availabilities: [ClinicianAvailability?] = []
    private var clinicianIndex = UUIDTable()

    // Appointment types.
    private(set) var typeIDs: [UUID] = []
    private(set) var types: [AppointmentType?] = []
    private var typeIndex = UUIDTable()

    // Rooms.
    private(set) var roomIDs: [UUID] = []
    private(set) var rooms: [Room?] = []
    private var roomIndex = UUIDTable()

    /// Currencies of the type fees, so revenue tallies are small arrays.
    private(set) var currencies: [String] = []
    /// Per type position: currency position (-1 for unknown types) and fee in minor units.
    private(set) var typeCurrency: [Int] = []
    private(set) var typeFee: [Int] = []
    /// Per type position: the specialty it counts under (`Specialty.allCases` position), -1 for unknown types.
    private(set) var typeSpecialty: [Int8] = []

    /// Clinician positions per specialty (by `Specialty.allCases` position). General practice
    /// is every known clinician: a type requiring no specialty can be booked with anyone.
    private(set) var specialtyMembers: [[Int]] = []

    /// How many clinicians, types and rooms the history itself lists (they come first).
    private(set) var knownClinicians = 0
    private(set) var knownTypes = 0
    private(set) var knownRooms = 0

    init(history: PracticeHistory) {
        for clinician in history.clinicians where clinicianIndex.find(clinician.id.rawValue) == nil {
            clinicianIndex.insert(clinician.id.rawValue, Int32(clinicianIDs.count))
            clinicianIDs.append(clinician.id.rawValue)
            clinicianNames.append(clinician.displayName)
            clinicians.append(clinician)
            availabilities.append(nil)
        }
        for availability in history.availabilities {
            if let index = clinicianIndex.find(availability.clinicianID.rawValue), availabilities[Int(index)] == nil {
                availabilities[Int(index)] = availability
            }
        }
        for type in history.appointmentTypes where typeIndex.find(type.id.rawValue) == nil {
            typeIndex.insert(type.id.rawValue, Int32(typeIDs.count))
            typeIDs.append(type.id.rawValue)
            types.append(type)
            var currency = currencies.firstIndex(of: type.fee.currency) ?? -1
            if currency < 0 {
                currency = currencies.count
                currencies.append(type.fee.currency)
            }
            typeCurrency.append(currency)
            typeFee.append(type.fee.minorUnits)
            typeSpecialty.append(Int8(Visit.specialties.firstIndex(of: type.requiredSpecialty ?? .generalPractice)!))
        }
        for room in history.rooms where roomIndex.find(room.id.rawValue) == nil {
            roomIndex.insert(room.id.rawValue, Int32(roomIDs.count))
            roomIDs.append(room.id.rawValue)
            rooms.append(room)
        }
        knownClinicians = clinicianIDs.count
        knownTypes = typeIDs.count
        knownRooms = roomIDs.count
        specialtyMembers = Specialty.allCases.map { specialty in
            if specialty == .generalPractice { return Array(clinicians.indices) }
            return clinicians.indices.filter { index in
                clinicians[index]?.expertise.contains { $0.specialty == specialty } ?? false
            }
        }
    }

    // MARK: - Positions (adding unknown ids)

    mutating func clinician(_ id: UUID) -> Int32 {
        if let index = clinicianIndex.find(id) { return index }
        let index = Int32(clinicianIDs.count)
        clinicianIndex.insert(id, index)
        clinicianIDs.append(id)
        clinicianNames.append("Unknown clinician")
        clinicians.append(nil)
        availabilities.append(nil)
        return index
    }

    mutating func type(_ id: UUID) -> Int32 {
        if let index = typeIndex.find(id) { return index }
        let index = Int32(typeIDs.count)
        typeIndex.insert(id, index)
        typeIDs.append(id)
        types.append(nil)
        typeCurrency.append(-1)
        typeFee.append(0)
        typeSpecialty.append(-1)
        return index
    }

    mutating func room(_ id: UUID) -> Int32 {
        if let index = roomIndex.find(id) { return index }
        let index = Int32(roomIDs.count)
        roomIndex.insert(id, index)
        roomIDs.append(id)
        rooms.append(nil)
        return index
    }

    // MARK: - Segments

    func clinicianSegment(_ index: Int) -> Segment {
        Segment(dimension: .clinician, id: UUIDText.lowercase(clinicianIDs[index]), name: clinicianNames[index])
    }

    func typeSegment(_ index: Int) -> Segment {
        Segment(
            dimension: .appointmentType, id: UUIDText.lowercase(typeIDs[index]),
            name: types[index]?.name ?? "Unknown appointment type")
    }

    func roomSegment(_ index: Int) -> Segment {
        Segment(dimension: .room, id: UUIDText.lowercase(roomIDs[index]), name: rooms[index]?.name ?? "Unknown room")
    }

    /// Position of a clinician in the catalogue, if known.
    func knownClinician(_ id: UUID) -> Int? { clinicianIndex.find(id).map(Int.init) }
    /// Position of a type, if known.
    func knownType(_ id: UUID) -> Int? { typeIndex.find(id).map(Int.init) }
    /// Position of a room, if known.
    func knownRoom(_ id: UUID) -> Int? { roomIndex.find(id).map(Int.init) }
}

// MARK: - One indexed appointment

/// An appointment reduced to what the metrics read, with positions instead of ids.
struct Visit: Sendable {
    let start: Double
    let end: Double
    let status: AppointmentStatus
    let clinician: Int32
    let type: Int32
    /// -1 when no room is allocated.
    let room: Int32
    /// Position in `Specialty.allCases`; -1 when the type is unknown.
    let specialty: Int8
    /// Position in `Species.allCases`; -1 when unknown.
    let species: Int8
    let patient: Int32
    /// Whole scheduled minutes; 0 when the time is invalid.
    let plannedMinutes: Int
    /// Recorded minutes, when completed and plausible (1–1440, as the lifecycle allows).
    let actualMinutes: Int?
    let bookedAt: Double?
    let cancelledAt: Double?
    /// When it was completed (or its scheduled end), for training the duration model.
    let completedAt: Double
    /// Start before end, both finite, at most a day apart (the store's own limit).
    let hasValidTime: Bool

    static let specialties = Specialty.allCases
    static let speciesList = Species.allCases

    init(record: AppointmentRecord, patient: Int32, catalogue: inout Catalogue) {
        let appointment = record.appointment
        let start = appointment.time.start.timeIntervalSince1970
        let end = appointment.time.end.timeIntervalSince1970
        self.start = start
        self.end = end
        self.status = appointment.status
        self.clinician = catalogue.clinician(appointment.clinicianID)
        let type = catalogue.type(appointment.appointmentTypeID.rawValue)
        self.type = type
        self.room = appointment.roomID.map { catalogue.room($0.rawValue) } ?? -1
        self.specialty = catalogue.typeSpecialty[Int(type)]
        self.species = record.species.map { Int8(Self.speciesList.firstIndex(of: $0)!) } ?? -1
        self.patient = patient
        let valid = start.isFinite && end.isFinite && start < end && end - start <= 86_400
        self.hasValidTime = valid
        self.plannedMinutes = valid ? Int(((end - start) / 60).rounded(.up)) : 0
        if appointment.status == .completed, let minutes = appointment.actualMinutes, (1...1440).contains(minutes) {
            self.actualMinutes = minutes
        } else {
            self.actualMinutes = nil
        }
        self.bookedAt = record.bookedAt.map(\.timeIntervalSince1970).flatMap { $0.isFinite ? $0 : nil }
        self.cancelledAt = record.cancelledAt.map(\.timeIntervalSince1970).flatMap { $0.isFinite ? $0 : nil }
        let completed = appointment.completedAt?.timeIntervalSince1970 ?? end
        self.completedAt = completed.isFinite ? completed : start
    }

    /// Whether it keeps its clinician's and room's time (not cancelled, not a no-show).
    var holdsTime: Bool { status.holdsTime }

    /// Whether the patient came.
    var attended: Bool { status == .checkedIn || status == .inProgress || status == .completed }
}
