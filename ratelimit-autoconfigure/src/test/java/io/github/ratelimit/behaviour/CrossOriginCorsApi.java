package io.github.ratelimit.behaviour;

import java.util.Map;

import org.springframework.web.bind.annotation.CrossOrigin;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@link CorsApi} with its CORS configuration on the controller ({@code @CrossOrigin}).
 */
@RestController
@CrossOrigin(originPatterns = { CorsConfigurations.ALLOWED_ORIGIN, CorsConfigurations.LOOPBACK_PAGES },
		exposedHeaders = CorsConfigurations.APP_EXPOSED_HEADER)
class CrossOriginCorsApi {

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
