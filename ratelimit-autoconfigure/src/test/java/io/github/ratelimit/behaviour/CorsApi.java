package io.github.ratelimit.behaviour;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints a page on another origin calls in the CORS suite, the same on both
 * stacks: {@code area} picks the endpoint group (and so the budget) of a test.
 */
@RestController
class CorsApi {

	@GetMapping("/cors/{area}/hello")
	Map<String, String> hello(@PathVariable String area) {
		return Map.of("hello", area);
	}

	@PostMapping("/cors/{area}/items/{id}")
	Map<String, Object> create(@PathVariable String area, @PathVariable String id,
			@RequestBody Map<String, Object> item) {
		return Map.of("id", id, "item", item);
	}

}
