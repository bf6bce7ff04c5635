import Benchmark
import Foundation
import Scheduling
import SharedKernel

/// Free slots for one day across 50 clinicians (target < 5 ms), each with a morning and an
/// afternoon shift and ten bookings, in a practice with rooms of each type.
func schedulingBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        tags: ["target": "p90 < 5 ms"],
        timeUnits: .microseconds,
        maxDuration: .seconds(3)
    )

    Benchmark("Scheduling.freeSlots one day × 50 clinicians", configuration: configuration) { benchmark in
        let practice = PracticeProfile(id: PracticeID(), name: "Bench", timeZone: "Europe/London",
                                       openingHours: (1...7).map { OpeningHours(weekday: $0, opensMinute: 7 * 60, closesMinute: 20 * 60) })
        let calendar = PracticeCalendar(timeZone: TimeZone(identifier: "Europe/London")!)
        let day = calendar.day(year: 2026, month: 11, day: 24)!
        let rooms = (1...12).map { Room(name: "Exam \($0)", type: .exam) } + (1...3).map { Room(name: "Theatre \($0)", type: .surgery) }
        let type = AppointmentType(name: "Consultation", defaultDurationMinutes: 15, bufferAfterMinutes: 5, requiredRoomType: .exam,
                                   fee: Money(minorUnits: 5000, currency: "GBP"))
        var timetables: [ClinicianTimetable] = []
        var appointments: [Appointment] = []
        for index in 0..<50 {
            let id = UUID()
            let morning = TimeRange(start: day.start.addingTimeInterval(8 * 3600), end: day.start.addingTimeInterval(12.5 * 3600))!
            let afternoon = TimeRange(start: day.start.addingTimeInterval(13.25 * 3600), end: day.start.addingTimeInterval(18 * 3600))!
            timetables.append(ClinicianTimetable(clinicianID: id, specialties: [.generalPractice], working: [morning, afternoon], maxAppointmentsPerDay: 30))
            for booking in 0..<10 {
                let start = day.start.addingTimeInterval(8 * 3600 + Double((booking * 47 + index * 13) % 540) * 60)
                let appointment = Appointment(practiceID: practice.id, patientID: UUID(), clinicianID: id, appointmentTypeID: type.id,
                                              roomType: .exam, time: TimeRange(start: start, end: start.addingTimeInterval(15 * 60))!, bufferAfterMinutes: 5)
                if !appointments.contains(where: { $0.clinicianID == id && $0.occupiedTime.overlaps(appointment.occupiedTime) }) {
                    appointments.append(appointment)
                }
            }
        }
        let query = SlotQuery(range: day, appointmentType: type)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard let finder = try? FreeSlotFinder(practice: practice, rooms: rooms, timetables: timetables, appointments: appointments),
                  let slots = try? finder.slots(for: query) else { fatalError("benchmark input must be valid") }
            blackHole(slots)
        }
    }
}
