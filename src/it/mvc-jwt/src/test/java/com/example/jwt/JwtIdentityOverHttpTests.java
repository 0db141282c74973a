package com.example.jwt;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Date;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * As the README's JWT example promises: the token's subject is the user, its org_id claim the org, its
 * tier claim the tier; users of one org share the org's budget.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class JwtIdentityOverHttpTests {

	private final HttpClient client = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Test
	void usersOfOneOrgShareItsBudgetAndKeepTheirOwn() throws Exception {
		String alice = token("alice", "acme", "premium");
		String bob = token("bob", "acme", "premium");
		HttpResponse<String> first = get(alice);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("RateLimit-Policy").orElseThrow())
			.contains("\"premium-user-default\";q=5").contains("\"premium-org-default\";q=8");
		for (int i = 0; i < 4; i++) {
			assertThat(get(alice).statusCode()).isEqualTo(200);
		}
		// alice spent her 5; acme has 3 left, which bob takes
		assertThat(get(alice).statusCode()).isEqualTo(429);
		for (int i = 0; i < 3; i++) {
			assertThat(get(bob).statusCode()).isEqualTo(200);
		}
		HttpResponse<String> orgSpent = get(bob);
		assertThat(orgSpent.statusCode()).isEqualTo(429);
		assertThat(orgSpent.body()).contains("\"scope\":\"org\"").contains("org 'acme'");
	}

	@Test
	void aForgedTokenIsNoIdentity() throws Exception {
		String forged = SignedJWT.parse(token("mallory", "acme", "premium")).getParsedString() + "x";
		// Spring Security answers 401 before the limiter: a bad signature never reaches anyone's budget
		assertThat(get(forged).statusCode()).isEqualTo(401);
	}

	private HttpResponse<String> get(String token) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/whoami"))
			.header("Authorization", "Bearer " + token)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String token(String subject, String org, String tier) throws Exception {
		JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject)
			.claim("org_id", org)
			.claim("tier", tier)
			.expirationTime(new Date(System.currentTimeMillis() + 600_000))
			.build();
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
		jwt.sign(new MACSigner(JwtApplication.SECRET.getBytes(StandardCharsets.UTF_8)));
		return jwt.serialize();
	}

}
