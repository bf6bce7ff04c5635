// MARK: - Rooms and output

/// Turns a search state into assignments with concrete rooms.
enum RoomAllocation {
    /// Assignments sorted by request order, each given the lowest-numbered free room of its
    /// type in start order (interval-graph colouring: since at most `count` appointments of
    /// a type run at once, `count` rooms always suffice). Rooms held by fixed bookings of
    /// that type are treated as anonymous capacity, so when the colouring cannot place an
    /// appointment in a numbered room it leaves the room open rather than invent a clash.
    static func assignments(_ problem: SchedulingProblem, _ p: CompiledProblem, _ state: ScheduleState)
        -> [SchedulingAssignment]
    {
        let placements = state.placements(p)
        var result = placements.map {
            SchedulingAssignment(
                requestID: problem.requests[$0.request].id,
                clinicianID: problem.clinicians[$0.clinician].id, start: $0.start)
        }
        var byType: [Int: [(start: Int, end: Int, index: Int)]] = [:]
        for (i, placement) in placements.enumerated() {
            let request = problem.requests[placement.request]
            byType[p.requests[placement.request].room, default: []]
                .append((placement.start, placement.start + request.duration, i))
        }
        let fixedTypes = Set(problem.fixedBookings.compactMap(\.roomType))
        for (k, list) in byType {
            let type = problem.roomTypes[k]
            guard !fixedTypes.contains(type.id) else { continue }
            var freeAt: [Int] = []
            for item in list.sorted(by: { ($0.start, $0.end, $0.index) < ($1.start, $1.end, $1.index) }) {
                if let room = freeAt.firstIndex(where: { $0 <= item.start }) {
                    freeAt[room] = item.end
                    result[item.index].room = "\(type.id)#\(room + 1)"
                } else if freeAt.count < type.count {
                    freeAt.append(item.end)
                    result[item.index].room = "\(type.id)#\(freeAt.count)"
                }
            }
        }
        return result
    }
}
