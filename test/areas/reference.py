"""The areas tests' own reference (not Loam's code): map-unit polygons read from the WSS shapefiles in
datasets/ with pyshp, cut to an area with shapely (GEOS), measured on the WGS84 ellipsoid with
pyproj.Geod (PROJ's port of Karney's geodesic algorithms).

stdin: JSON {"data_dir": ..., "ask": "aois" | "clip" | "points", "wkt": ...}; stdout: JSON.
"""
import glob
import json
import os
import sys

import shapefile
from pyproj import Geod
from shapely import wkt as shapely_wkt
from shapely.geometry import shape

GEOD = Geod(ellps="WGS84")


def area_m2(geometry):
    return abs(GEOD.geometry_area_perimeter(geometry)[0])


def map_unit_polygons(data_dir):
    for path in sorted(glob.glob(os.path.join(data_dir, "ssurgo", "*", "spatial", "soilmu_a_*.shp"))):
        reader = shapefile.Reader(path)
        for record in reader.iterShapeRecords():
            yield record.record["MUKEY"], record.record["AREASYMBOL"], shape(record.shape.__geo_interface__)


def clip(data_dir, area):
    by_mukey = {}
    for mukey, _, polygon in map_unit_polygons(data_dir):
        if not polygon.intersects(area):
            continue
        cut = polygon.intersection(area)
        m2 = area_m2(cut)
        if m2 > 0:
            by_mukey[mukey] = by_mukey.get(mukey, 0) + m2
    return {"aoi_m2": area_m2(area), "by_mukey": by_mukey}


def aois(data_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(data_dir, "ssurgo", "IA*-aoi", "spatial", "aoi_a_aoi.shp"))):
        area = shape(shapefile.Reader(path).shape(0).__geo_interface__)
        out.append({"export": path.split(os.sep)[-3], "wkt": area.wkt, **clip(data_dir, area)})
    return out


def points(data_dir):
    """One point inside each map unit: its largest polygon's representative point."""
    largest = {}
    for mukey, areasymbol, polygon in map_unit_polygons(data_dir):
        if mukey not in largest or polygon.area > largest[mukey][1].area:
            largest[mukey] = (areasymbol, polygon)
    out = []
    for mukey in sorted(largest, key=int):
        point = largest[mukey][1].representative_point()
        out.append({"mukey": mukey, "area_symbol": largest[mukey][0], "latitude": round(point.y, 6), "longitude": round(point.x, 6)})
    return out


def main():
    request = json.load(sys.stdin)
    data_dir = request["data_dir"]
    ask = request["ask"]
    if ask == "aois":
        answer = aois(data_dir)
    elif ask == "clip":
        answer = clip(data_dir, shapely_wkt.loads(request["wkt"]))
    elif ask == "points":
        answer = points(data_dir)
    else:
        raise SystemExit(f"unknown ask {ask}")
    json.dump(answer, sys.stdout)


main()
