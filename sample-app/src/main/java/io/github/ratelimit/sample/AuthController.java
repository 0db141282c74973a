package io.github.ratelimit.sample;

import java.util.Map;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The auth group: {@code /v1/auth/**}. */
@RestController
@RequestMapping("/v1/auth")
class AuthController {

	@PostMapping("/login")
	Map<String, Object> login() {
		return Map.of("status", "ok", "token", "demo-session");
	}

	@PostMapping("/refresh")
	Map<String, Object> refresh() {
		return Map.of("status", "ok");
	}

}
