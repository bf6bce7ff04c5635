-- wrk script: each request books a different prepared slot (one JSON body per line); a
-- thread stops once its share of the slots is used, so no slot is ever requested twice.
local threads = {}
local bodies = {}
for line in io.lines(os.getenv("VETNET_BODIES")) do bodies[#bodies + 1] = line end
local token = os.getenv("VETNET_TOKEN")
local thread_count = tonumber(os.getenv("VETNET_THREADS") or "2")

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  created, conflicts, others = 0, 0, 0
end

function request()
  local index = id + counter * thread_count + 1
  counter = counter + 1
  if index > #bodies then
    wrk.thread:stop()
    index = #bodies
  end
  return wrk.format("POST", "/api/v1/appointments",
    {["content-type"] = "application/json", ["authorization"] = "Bearer " .. token}, bodies[index])
end

function response(status, headers, body)
  if status == 201 then created = created + 1 elseif status == 409 then conflicts = conflicts + 1 else others = others + 1 end
end

function done(summary, latency, requests)
  local c, x, o = 0, 0, 0
  for _, thread in ipairs(threads) do
    c = c + thread:get("created"); x = x + thread:get("conflicts"); o = o + thread:get("others")
  end
  io.write(string.format("responses: 201 %d, 409 %d, other %d in %.2f s: %.0f bookings/s\n", c, x, o,
    summary.duration / 1e6, summary.requests / (summary.duration / 1e6)))
  io.write(string.format("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
