package io.github.ratelimit.behaviour;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints the client-side suite calls, on either web stack: a paced read, a write
 * and a read behind a long window (their limits are the suite's properties).
 */
@RestController
class CalledApi {

	@GetMapping("/client/paced/{n}")
	Map<String, String> paced(@PathVariable String n) {
		return Map.of("call", n);
	}

	/** Accepts an order, and echoes its body: a retried request must carry it again. */
	@PostMapping("/client/orders")
	Map<String, String> order(@RequestBody(required = false) @Nullable String body) {
		return Map.of("order", "accepted", "body", (body != null) ? body : "");
	}

	@GetMapping("/client/slow")
	Map<String, String> slow() {
		return Map.of("slow", "answered");
	}

}
