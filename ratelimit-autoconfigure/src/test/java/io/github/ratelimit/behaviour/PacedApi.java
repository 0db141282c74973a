package io.github.ratelimit.behaviour;

import java.util.Map;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

/**
 * The paced endpoint of {@link CalledApi} as an HTTP interface client
 * ({@code @HttpExchange}), as an application declares the APIs it calls.
 */
@HttpExchange("/client")
interface PacedApi {

	@GetExchange("/paced/{n}")
	Map<String, String> paced(@PathVariable int n);

}
