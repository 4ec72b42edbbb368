-- Every stored click paid for this index, and only retention read it (old clicks of
-- an organization's plan): the BRIN index on clicked_at serves that range, and the
-- click consumer's insert is one B-tree cheaper.
DROP INDEX "clicks_organization_id_clicked_at_idx";
