package io.github.ratelimit.sample;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.ratelimit.annotation.RateLimited;

/** The service's other endpoint groups, each under its own path (see application.yml). */
@RestController
class ApiController {

	@PostMapping("/v1/threat-detection/scan")
	Map<String, Object> scan() {
		return Map.of("threat", false);
	}

	@GetMapping("/v1/trust-score/{entity}")
	Map<String, Object> trustScore(@PathVariable String entity) {
		return Map.of("entity", entity, "score", 0.93);
	}

	@PostMapping("/v1/notifications/send")
	Map<String, Object> notify(String to) {
		return Map.of("queued", true);
	}

	@GetMapping("/v1/analytics/summary")
	Map<String, Object> summary() {
		return Map.of("requests", 1234);
	}

	/**
	 * A heavy report: 5 tokens of the analytics budget per call, and a budget of its own
	 * of 60 tokens (12 reports) an hour per caller.
	 */
	@RateLimited(cost = 5, limit = "60/1h")
	@GetMapping("/v1/analytics/report")
	Map<String, Object> report() {
		return Map.of("rows", 42);
	}

	@GetMapping("/v1/admin/stats")
	Map<String, Object> adminStats() {
		return Map.of("users", 7);
	}

	@GetMapping("/v1/status")
	Map<String, Object> status() {
		return Map.of("up", true);
	}

}
