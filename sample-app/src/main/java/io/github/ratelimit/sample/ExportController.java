package io.github.ratelimit.sample;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A slow export, capped at 2 in flight per caller
 * ({@code ratelimit.groups.export.concurrency}), and a search that a new limit only
 * observes while it is rolled out ({@code mode: observe}).
 */
@RestController
class ExportController {

	/** The longest an export pretends to take. */
	private static final long MAX_MILLIS = 10_000;

	@GetMapping("/v1/export")
	Map<String, Object> export(@RequestParam(defaultValue = "2000") long millis) throws InterruptedException {
		long slept = Math.max(0, Math.min(millis, MAX_MILLIS));
		Thread.sleep(slept);
		return Map.of("rows", 1000, "tookMillis", slept);
	}

	@GetMapping("/v1/search")
	Map<String, Object> search(@RequestParam(defaultValue = "") String q) {
		return Map.of("query", (q.length() > 64) ? q.substring(0, 64) : q, "hits", 3);
	}

}
