-- held_name follows status for every writer (the api, the CLI, fixtures, benches): the name while
-- the domain is verified or invalid, NULL while pending, so its unique index always means "one
-- organization holds this name" (decisions §22). A trigger, which the schema engine leaves alone.
CREATE FUNCTION domains_held_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.held_name := CASE WHEN NEW.status = 'pending' THEN NULL ELSE NEW.domain END;
  RETURN NEW;
END
$$;

CREATE TRIGGER domains_held_name BEFORE INSERT OR UPDATE OF status, domain, held_name ON "domains"
  FOR EACH ROW EXECUTE FUNCTION domains_held_name();
