package io.github.ratelimit.bench.floor;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The sample app's endpoints that bench/run.sh drives, with the same bodies. */
@RestController
class FloorController {

	@GetMapping("/v1/status")
	Map<String, Object> status() {
		return Map.of("up", true);
	}

	@PostMapping("/v1/auth/login")
	Map<String, Object> login() {
		return Map.of("status", "ok", "token", "demo-session");
	}

}
